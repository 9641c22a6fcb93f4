/// What a session reports about a run, around the stages' own messages.
enum SessionMessage: DiagnosticMessage {
    /// `notShown` diagnostics left out past the limit of `limit`.
    case tooManyErrors(notShown: Int, limit: Int)
    case moreErrorsOnLine(Int)
    /// A Swift error no stage should throw.
    case internalError(String)
    /// `whence`: where, when the statement shown is not where it was raised.
    case uncaughtRaisedHere(exceptionName: String, whence: String)
    /// A runtime error (`RuntimeFailure.message`): in a notification loop
    /// (`loop`, what repeats) or at `whence`, with the front end's `advice`
    /// for a limit.
    case runtimeError(String, loop: String?, whence: String, advice: String?)
    case loopStartedHere

    var id: MessageID { MessageID(domain: "session", id: caseName) }

    var text: String {
        switch self {
        case .tooManyErrors(let notShown, let limit):
            return "too many errors: \(notShown) more not shown (at most "
                + "\(limit) are); fix the ones above and run again"
        case .moreErrorsOnLine(let count): return "\(count) more errors on this line; fix the first ones and run again"
        case .internalError(let error): return "internal error: \(error)"
        case .uncaughtRaisedHere(let name, let whence):
            return "the uncaught exception '\(name)' was raised here" + whence
        case .runtimeError(let message, let loop, let whence, let advice):
            var text =
                loop.map {
                    message + "; a notification loop: \($0) repeats, each handler changing what the next observes"
                }
                ?? message + whence
            if let advice { text += "; " + advice }
            return text
        case .loopStartedHere: return "the loop started with this statement"
        }
    }
}
