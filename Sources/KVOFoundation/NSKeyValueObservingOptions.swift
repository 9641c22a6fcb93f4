import KVOCore

/// `NSKeyValueObservingOptions`. Printed as Swift prints the imported C type
/// on a Mac (SPEC §11.8): `NSKeyValueObservingOptions(rawValue: 1)`, and
/// `__C.NSKeyValueObservingOptions(rawValue: 1)` inside a collection.
public struct NSKeyValueObservingOptions: OptionSet, Sendable, Hashable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 1)
    public static let old = NSKeyValueObservingOptions(rawValue: 2)
    public static let initial = NSKeyValueObservingOptions(rawValue: 4)
    public static let prior = NSKeyValueObservingOptions(rawValue: 8)

    /// `[.new, .old]`: the options' union, as `SetAlgebra`'s initializer
    /// makes it. Declared here because that one is generic: in a program
    /// (compiled `-Onone`), its first call had the Swift runtime find the
    /// literal's element type by scanning the conformance records of
    /// Foundation and the standard library, a fifth of the instructions a
    /// cached program starts in (Benchmarks/README.md, "the program host").
    public init(arrayLiteral options: NSKeyValueObservingOptions...) {
        var raw: UInt = 0
        for option in options { raw |= option.rawValue }
        self.init(rawValue: raw)
    }

    public var description: String { "NSKeyValueObservingOptions(rawValue: \(rawValue))" }
    public var debugDescription: String { "__C." + description }

    var _engineOptions: ObservingOptions { ObservingOptions(rawValue: UInt8(truncatingIfNeeded: rawValue & 15)) }
}
