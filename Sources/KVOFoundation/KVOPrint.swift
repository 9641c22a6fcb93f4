import KVOCore

/// Swift's `print`, as a `print` event of the trace: indented with the
/// handler depth in text, a `print` event in JSON (SPEC §8). Values that
/// Objective-C bridged print as Foundation prints them on a Mac: an NSNumber
/// as `%0.16g` (`Optional(200)`, `0.07000000000000001`), a change dictionary
/// with its keys in Apple's order, an observation info as its dump.
public func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    _KVOPrinter.print(items, separator: separator, terminator: terminator)
}

/// `debugPrint`, through the same events.
public func debugPrint(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    _KVOPrinter.debugPrint(items, separator: separator, terminator: terminator)
}

/// String interpolation of what Objective-C hands Swift as `Any` (a KVC
/// value, a change dictionary's entry): an NSNumber in it is described as
/// Foundation describes it on a Mac (`%0.16g`: `0.07000000000000001`, a
/// Bool's `1`), as `print` does, where swift-corelibs-foundation's own
/// description differs. A value of any other static type interpolates as
/// Swift's own (these overloads need a conversion to `Any`, which Swift
/// ranks below its generic ones).
extension DefaultStringInterpolation {
    public mutating func appendInterpolation(_ value: Any) {
        appendLiteral(_KVOPrinter.describe(value))
    }

    public mutating func appendInterpolation(_ value: Any?) {
        appendLiteral(_KVOPrinter.describe(value as Any))
    }

    public mutating func appendInterpolation(_ value: NSNumber) {
        appendLiteral(_KVOPrinter.describe(value))
    }

    /// A key path as a Mac prints it (`\Account.balance`).
    public mutating func appendInterpolation<Root, Value>(_ keyPath: KeyPath<Root, Value>) {
        appendLiteral(_KVOPrinter.describe(keyPath))
    }
}

/// `String(describing:)` of the same values, for the same reason.
extension String {
    public init(describing value: Any) {
        self = _KVOPrinter.describe(value)
    }

    public init(describing value: Any?) {
        self = _KVOPrinter.describe(value as Any)
    }

    public init(describing value: NSNumber) {
        self = _KVOPrinter.describe(value)
    }
}

/// `dump`, through the same events as `print` (indented with the handler
/// depth, a `print` event in JSON). The superclass line of a program's
/// NSObject subclass says `super: NSObject`, as Objective-C's class prints
/// on a Mac (the mirror of kvo-run's NSObject has no children either).
@discardableResult
public func dump<T>(_ value: T, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max) -> T {
    var text = ""
    Swift.dump(value, to: &text, name: name, indent: indent, maxDepth: maxDepth, maxItems: maxItems)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
        line.hasSuffix("- super: KVOFoundation.NSObject")
            ? line.dropLast("KVOFoundation.NSObject".count) + "NSObject" : line
    }
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    _KVOPrinter.write(lines.joined(separator: "\n"), depth: process.kvo.depth)
    return value
}

/// `Swift.print`, `Swift.debugPrint` and `Swift.dump` as the rewriter
/// spells them (five letters, like `Swift`, so that columns stay): a class
/// with a method named `print` calls the function this way.
public enum _KVOs {
    public static func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
        _KVOPrinter.print(items, separator: separator, terminator: terminator)
    }

    public static func debugPrint(_ items: Any..., separator: String = " ", terminator: String = "\n") {
        _KVOPrinter.debugPrint(items, separator: separator, terminator: terminator)
    }

    @discardableResult
    public static func dump<T>(
        _ value: T, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max
    ) -> T {
        KVOFoundation.dump(value, name: name, indent: indent, maxDepth: maxDepth, maxItems: maxItems)
    }
}
