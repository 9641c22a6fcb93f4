import KVOCore
import KVOScript

/// How to get past a limit, in the words of the front end the user is in.
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

extension Session {
    /// A session whose limit errors name the command line's flags.
    public static func commandLine(options: RunOptions, output: ScriptOutput, stop: StopFlag = StopFlag()) -> Session {
        let session = Session(options: options, output: output, stop: stop)
        session.limitAdvice = { $0.commandLineAdvice }
        return session
    }
}
