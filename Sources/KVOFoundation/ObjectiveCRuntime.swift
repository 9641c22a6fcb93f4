/// The pieces of Apple's Objective-C runtime that KVO code written in Swift
/// reaches for besides KVO itself: associated objects (where token sets and
/// observation helpers are commonly kept) and selectors as names. Linux has
/// no Objective-C runtime; these keep the same contracts for kvo-run's
/// NSObject and for any other class instance.

/// `objc_AssociationPolicy`, with Apple's raw values.
public enum objc_AssociationPolicy: UInt, Sendable {
    case OBJC_ASSOCIATION_ASSIGN = 0
    case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
    case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
    case OBJC_ASSOCIATION_RETAIN = 769
    case OBJC_ASSOCIATION_COPY = 771
}

/// One object's associated values, by key. An `ASSIGN` value is not
/// retained: it is held weakly (Apple's is an unretained pointer, which
/// dangles where this one reads as nil).
final class _KVOAssociations {
    /// The object they belong to: an entry whose object is gone is stale
    /// (its identifier may have been reused).
    weak var owner: AnyObject?
    var values: [UnsafeRawPointer: _KVOAssociatedValue] = [:]
    init(owner: AnyObject) { self.owner = owner }
}

enum _KVOAssociatedValue {
    case retained(Any)
    case unretained(_KVOWeakValue)
}

final class _KVOWeakValue {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

extension _KVOProcess {
    func associations(of object: AnyObject, creating: Bool) -> _KVOAssociations? {
        let key = ObjectIdentifier(object)
        if let known = associationTables[key], known.owner === object { return known }
        guard creating else { return nil }
        let table = _KVOAssociations(owner: object)
        associationTables[key] = table
        return table
    }
}

/// Attaches `value` to `object` under `key` (a pointer, compared by
/// address); nil removes it. Released with the object.
public func objc_setAssociatedObject(
    _ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy
) {
    let owner = object as AnyObject
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    // The value replaced is released after the table is updated: its deinit
    // may set associated objects too.
    let replaced: _KVOAssociatedValue?
    if let value {
        guard let table = process.associations(of: owner, creating: true) else { return }
        let stored: _KVOAssociatedValue =
            policy == .OBJC_ASSOCIATION_ASSIGN && type(of: value) is AnyClass
            ? .unretained(_KVOWeakValue(value as AnyObject)) : .retained(value)
        replaced = table.values.updateValue(stored, forKey: key)
    } else {
        replaced = process.associations(of: owner, creating: false)?.values.removeValue(forKey: key)
    }
    withExtendedLifetime(replaced) {}
}

/// The value attached to `object` under `key`, or nil.
public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? {
    let owner = object as AnyObject
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    guard let stored = process.associations(of: owner, creating: false)?.values[key] else { return nil }
    switch stored {
    case .retained(let value): return value
    case .unretained(let box): return box.object
    }
}

/// Removes every value attached to `object`.
public func objc_removeAssociatedObjects(_ object: Any) {
    let owner = object as AnyObject
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    let table = process.associations(of: owner, creating: false)
    let removed = table?.values ?? [:]
    table?.values = [:]
    withExtendedLifetime(removed) {}
}

/// A selector: on Linux, the method's Objective-C name and nothing more
/// (`Selector(("name"))`, `NSSelectorFromString`), enough to serve as a
/// unique name or an associated-object key. `#selector` needs the compiler's
/// Objective-C support, which Linux does not have.
public struct Selector: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    let name: String
    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }
    public var description: String { name }
}

public func NSSelectorFromString(_ name: String) -> Selector { Selector(name) }
public func NSStringFromSelector(_ selector: Selector) -> String { selector.name }
