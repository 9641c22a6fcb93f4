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

    public var description: String { "NSKeyValueObservingOptions(rawValue: \(rawValue))" }
    public var debugDescription: String { "__C." + description }

    var _engineOptions: ObservingOptions { ObservingOptions(rawValue: UInt8(truncatingIfNeeded: rawValue & 15)) }
}
