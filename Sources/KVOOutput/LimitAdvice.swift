import KVOCore

/// How to get past a limit, in the words of the front end the user is in:
/// the command line's flags (a scenario, and a compiled program's runtime),
/// the REPL's `:set` (KVORun), or the playground's page, whose user cannot
/// change the server's limits (`kvo-run serve`).
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

    public var playgroundAdvice: String {
        switch self {
        case .depth: "that is the playground's limit (kvo-run serve --max-depth N raises it)"
        case .steps: "that is the playground's limit: does a loop never end? (kvo-run serve --max-steps N raises it)"
        case .stack: "simplify the recursion"
        }
    }
}
