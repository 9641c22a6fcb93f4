import KVOOutput
import KVOScript

extension Session {
    /// A session whose limit errors name the command line's flags.
    public static func commandLine(options: RunOptions, output: ScriptOutput, stop: StopFlag = StopFlag()) -> Session {
        let session = Session(options: options, output: output, stop: stop)
        session.limitAdvice = { $0.commandLineAdvice }
        return session
    }
}
