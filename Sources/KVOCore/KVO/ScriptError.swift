/// What unwinds a scenario: a Cocoa exception or a runtime error.
public enum ScriptError: Error {
    case exception(CocoaException)
    case runtime(RuntimeFailure)

    public static func runtime(_ message: String) -> ScriptError { .runtime(RuntimeFailure(message)) }
}
