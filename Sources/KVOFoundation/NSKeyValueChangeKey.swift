import KVOCore

/// `NSKeyValueChangeKey`, printed as Swift prints the imported struct.
public struct NSKeyValueChangeKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let kindKey = NSKeyValueChangeKey("kind")
    public static let newKey = NSKeyValueChangeKey("new")
    public static let oldKey = NSKeyValueChangeKey("old")
    public static let indexesKey = NSKeyValueChangeKey("indexes")
    public static let notificationIsPriorKey = NSKeyValueChangeKey("notificationIsPrior")
    public var description: String { "NSKeyValueChangeKey(_rawValue: \(rawValue))" }
    public var debugDescription: String { "__C.NSKeyValueChangeKey(_rawValue: \(rawValue))" }

    /// Where the key sits in Apple's printed dictionary (SPEC §6.3's order).
    var _order: Int {
        ["indexes", "kind", "new", "notificationIsPrior", "old"].firstIndex(of: rawValue) ?? 5
    }
}
