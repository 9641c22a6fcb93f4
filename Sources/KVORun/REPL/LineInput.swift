/// A source of input lines: readline on a terminal, a fake in tests.
protocol LineInput {
    /// The next line, or nil at end of input (Ctrl-D).
    mutating func readLine(prompt: String) -> String?
    mutating func remember(_ entry: String)
}
