import KVOCore

/// `NSKeyValueObservingOptions`.
public struct NSKeyValueObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 1)
    public static let old = NSKeyValueObservingOptions(rawValue: 2)
    public static let initial = NSKeyValueObservingOptions(rawValue: 4)
    public static let prior = NSKeyValueObservingOptions(rawValue: 8)

    var _engineOptions: ObservingOptions { ObservingOptions(rawValue: UInt8(truncatingIfNeeded: rawValue & 15)) }
}
