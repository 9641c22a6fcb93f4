/// Observing options, printed in the order new, old, initial, prior.
public struct ObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let new = ObservingOptions(rawValue: 1)
    public static let old = ObservingOptions(rawValue: 2)
    public static let initial = ObservingOptions(rawValue: 4)
    public static let prior = ObservingOptions(rawValue: 8)

    public static let all: [(ObservingOptions, String)] = [
        (.new, "new"), (.old, "old"), (.initial, "initial"), (.prior, "prior"),
    ]
    public var names: [String] { Self.all.filter { contains($0.0) }.map(\.1) }
}
