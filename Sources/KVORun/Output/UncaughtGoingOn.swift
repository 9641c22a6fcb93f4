import KVOCore
import KVOScript

extension TextFormat {
    /// An uncaught exception where the session goes on (the REPL): Apple's
    /// words without "Terminating app".
    static func uncaughtGoingOn(_ exception: CocoaException, color: Bool) -> String {
        let name = ControlCharacters.escaping(exception.name, keepingNewlines: true)
        let reason = ControlCharacters.escaping(exception.reason, keepingNewlines: true)
        let text = "*** Entry stopped by uncaught exception '\(name)', reason: '\(reason)'"
        return (color ? "\u{1B}[1;31m\(text)\(reset)" : text) + "\n"
    }
}
