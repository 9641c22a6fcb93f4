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

/// `NSKeyValueChange`: Swift prints an imported enum by its type name alone.
public enum NSKeyValueChange: UInt, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    case setting = 1, insertion = 2, removal = 3, replacement = 4
    public var description: String { "NSKeyValueChange" }
    public var debugDescription: String { "__C.NSKeyValueChange" }
}

/// The Swift overlay's key-path spelling of the two class hooks. As on a
/// Mac, it answers only for the key path `observe(_:options:changeHandler:)`
/// is registering, while it registers (the overlay's key-path bridge):
/// other keys, and keys registered with `addObserver`, get NSObject's answers.
public protocol NSKeyValueObservingCustomization: NSObjectProtocol {
    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath>
    static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool
}
