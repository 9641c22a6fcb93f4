/// Colour on a terminal: the one place the ANSI escapes are written, for
/// events (`TextFormat`), diagnostics (`DiagnosticFormat`) and `kvo-run
/// test`'s diffs alike. Colour is a decoration: with it off, every caller
/// writes the same text without it, byte for byte. Here rather than in
/// KVORun because a compiled Swift program's runtime (KVOFoundation) paints
/// its own lines and diagnostics with it and links KVOOutput, never KVORun.
public enum Paint: Sendable {
    case bold, red, green, yellow, cyan, magenta, boldRed, boldGreen, boldMagenta, boldCyan

    /// The escape that starts this paint.
    @inlinable public var start: StaticString {
        switch self {
        case .bold: "\u{1B}[1m"
        case .red: "\u{1B}[31m"
        case .green: "\u{1B}[32m"
        case .yellow: "\u{1B}[33m"
        case .cyan: "\u{1B}[36m"
        case .magenta: "\u{1B}[35m"
        case .boldRed: "\u{1B}[1;31m"
        case .boldGreen: "\u{1B}[1;32m"
        case .boldMagenta: "\u{1B}[1;35m"
        case .boldCyan: "\u{1B}[1;36m"
        }
    }

    /// The escape that ends any paint.
    @inlinable public static var end: StaticString { "\u{1B}[0m" }

    /// `text` painted when `color` is on, else `text` as it is.
    public func callAsFunction<Text: StringProtocol>(_ text: Text, if color: Bool) -> String {
        color ? "\(start)\(text)\(Self.end)" : String(text)
    }
}
