/// The text trace's one rule for runaway nesting (SPEC §8.1), for kvo-run's
/// renderer and a compiled program's runtime alike: lines nested deeper than
/// `TextFormat.maxIndentDepth` are counted, not written (past that depth it
/// is almost always a runaway loop, and a thousand lines of it would bury
/// what comes after), and the next line that is written is preceded by one
/// notice, at the deepest indentation, saying how many were left out.
public struct DeepLines {
    /// Lines left out since the last one written.
    public private(set) var count = 0

    public init() {}

    /// Whether a line of `depth` is left out (and counted).
    public mutating func leavesOut(depth: Int) -> Bool {
        guard depth > TextFormat.maxIndentDepth else { return false }
        count += 1
        return true
    }

    /// Whether `text`, an event's lines at `depth`, is left out (each of its
    /// lines counted).
    public mutating func leavesOut(_ text: String, depth: Int) -> Bool {
        guard depth > TextFormat.maxIndentDepth else { return false }
        count += text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        return true
    }

    /// The notice for the lines left out, to write before the next line;
    /// nil when none were. Asking starts the count again.
    public mutating func takeNotice() -> String? {
        guard count > 0 else { return nil }
        defer { count = 0 }
        return TextFormat.cutLinesNotice(count)
    }
}
