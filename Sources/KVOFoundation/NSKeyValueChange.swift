/// `NSKeyValueChange`: Swift prints an imported enum by its type name alone.
public enum NSKeyValueChange: UInt, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    case setting = 1, insertion = 2, removal = 3, replacement = 4
    public var description: String { "NSKeyValueChange" }
    public var debugDescription: String { "__C.NSKeyValueChange" }
}
