import KVOCore

/// A value Objective-C hands Swift (an NSNumber, an NSString, Foundation's
/// collections) seen as an `NSObject`, as `change?[.newKey] as? NSObject`
/// sees it on a Mac (SPEC §11.8). On a Mac those classes descend from
/// NSObject; here they descend from swift-corelibs-foundation's, which is not
/// the runtime's NSObject, so no cast can succeed: the rewriter spells the
/// casts to `NSObject` as this file's operators (`as? NSObject` is
/// `~>? NSObject.self`), which wrap such a value. The wrapper prints, compares
/// and hashes as the value does, and KVC unwraps it when it is stored.
public final class _KVOBridgedObject: NSObject {
    /// The Objective-C value itself.
    let base: Any

    init(_ base: Any) {
        self.base = base
        super.init()
    }

    public override var description: String { _KVOPrinter.describe(base) }
    public override var debugDescription: String { _KVOPrinter.debugDescribe(base) }
    public override var className: String { _KVOBridge.swiftTypeName(_KVOBridge.value(base)) }
    public override var hash: Int { (base as? Foundation.NSObject)?.hash ?? 0 }

    public override func isEqual(_ object: Any?) -> Bool {
        let other = (object as? _KVOBridgedObject)?.base ?? object
        guard let mine = base as? Foundation.NSObject, let other = other.flatMap(_KVOBridgedObject.objectiveC) else {
            return false
        }
        return mine.isEqual(other)
    }

    /// `value` as Objective-C holds it: one of corelibs' objects (a Swift
    /// String as an NSString, an Int as an NSNumber), or nil when it is none.
    static func objectiveC(_ value: Any) -> Foundation.NSObject? {
        if let object = value as? Foundation.NSObject { return object }
        return _KVOBridge.swiftValue(_KVOBridge.value(value)) as? Foundation.NSObject
    }

    /// `value as? NSObject` on a Mac: the runtime's own objects as they are,
    /// anything Objective-C bridges wrapped, nil for nil.
    static func cast(_ value: Any?) -> NSObject? {
        guard let value else { return nil }
        if let optional = value as? _KVOOptional { return cast(optional._kvoWrapped) }
        if let object = value as? NSObject { return object }
        if value is NSNull { return _KVOBridgedObject(NSNull()) }
        return objectiveC(value).map(_KVOBridgedObject.init)
    }
}

/// Just above Swift's own casts', so that `x ~>? NSObject.self as Any`
/// reads as `x as? NSObject as Any` does (a cast chains; `CastingPrecedence`
/// itself would not).
precedencegroup _KVOCastingPrecedence {
    higherThan: CastingPrecedence
    lowerThan: RangeFormationPrecedence
}

/// `as? NSObject`, as the rewriter spells it.
infix operator ~>? : _KVOCastingPrecedence
/// `as! NSObject`.
infix operator ~>! : _KVOCastingPrecedence
/// `is NSObject`.
infix operator ~>~ : _KVOCastingPrecedence

public func ~>? (value: Any?, type: NSObject.Type) -> NSObject? {
    _KVOBridgedObject.cast(value)
}

public func ~>! (value: Any?, type: NSObject.Type) -> NSObject {
    // A failed `as!` traps in the program, as Swift's own does (kvo-run
    // reports the trap at the statement): the program's meaning, not a crash.
    guard let object = _KVOBridgedObject.cast(value) else {
        let typeName = value.map { _typeName(Swift.type(of: $0), qualified: false) } ?? "Optional<Any>"
        fatalError("Could not cast value of type '\(typeName)' to 'NSObject'.")
    }
    return object
}

public func ~>~ (value: Any?, type: NSObject.Type) -> Bool {
    _KVOBridgedObject.cast(value) != nil
}
