import KVOCore

/// How to get past a limit, in the words of the front end the user is in:
/// the command line's flags (a scenario, and a compiled program's runtime) or
/// the REPL's `:set` (KVORun).
extension RuntimeFailure.Limit {
    public var commandLineAdvice: String {
        switch self {
        case .depth: "raise it with --max-depth"
        case .steps: "raise the limit with --max-steps"
        case .stack: "lower --max-depth or simplify the recursion"
        }
    }

    public var replAdvice: String {
        switch self {
        case .depth: "raise it with :set max-depth N"
        case .steps: "raise the limit with :set max-steps N"
        case .stack: "lower the depth with :set max-depth N or simplify the recursion"
        }
    }
}
