/// A source of input lines: readline on a terminal, a fake in tests.
protocol LineInput {
    /// The next line, or nil at end of input (Ctrl-D).
    mutating func readLine(prompt: String) -> String?
    mutating func remember(_ entry: String)
    /// What Tab completes from while the next entry is read: the scenario
    /// session, or the Swift program after `import Foundation`.
    mutating func useCompletion(_ source: any CompletionSource)
}

extension LineInput {
    /// Input without Tab (a test's lines) has nothing to complete.
    mutating func useCompletion(_ source: any CompletionSource) {}
}
