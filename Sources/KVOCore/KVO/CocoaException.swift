/// A Cocoa exception (NSException) with Apple's name and reason text.
public struct CocoaException: Sendable {
    public let name: String
    public let reason: String
    /// Handlers running when it was raised: the `depth` of its event.
    public var depth: Int
    /// The statement that raised it, stamped by the interpreter on the
    /// innermost statement it unwinds through (nil until then), so that an
    /// uncaught one can say where it came from.
    public var line: Int?
    public var column: Int?
    /// An `NSError` thrown by Swift code travels as an exception named
    /// "NSError" whose reason is its description; these are its fields.
    public var error: NSErrorFields?

    public init(name: String, reason: String, depth: Int = 0) {
        self.name = name
        self.reason = reason
        self.depth = depth
    }
}

extension CocoaException: Equatable {
    /// The same exception whether or not it has been located yet: where it
    /// was raised is a note about it, not part of what it is (a caught error
    /// compares by name and reason, as an NSException's does).
    public static func == (a: CocoaException, b: CocoaException) -> Bool {
        a.name == b.name && a.reason == b.reason && a.depth == b.depth
    }
}
