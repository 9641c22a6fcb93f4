/// Why `Session.showObservationInfo(of:)` printed nothing: data, worded by
/// the front end that asked (the REPL's `:info`).
public enum ObservationInfoProblem: Equatable, Sendable {
    /// The argument is not a name; `shown` is it with control characters escaped.
    case notAName(shown: String)
    /// No top-level variable of that name; `suggestion` is
    /// `Suggestion.didYouMean`'s ` (did you mean …?)`, or empty.
    case noVariable(String, suggestion: String)
    case notAnObject(String, typeName: String)
    case released(String, description: String)
}
