#if canImport(Glibc)
import Glibc
#endif
import KVOCore
import KVOOutput
import KVOScript

/// `kvo-run graph` and `kvo-run trace` of a Swift program (SPEC §11.0): it
/// is compiled and run with the picture asked of its runtime, which draws it
/// from its own engine with the code that draws a scenario's (KVOOutput).
/// What the program prints goes to standard error, as a scenario's
/// uncaught exception does; its trace is not written.
enum SwiftPicture {
    enum Outcome {
        /// The picture, the run's status, and its counts.
        case drawn(String, status: Int32, summary: SwiftProgram.Summary)
        /// Nothing drawn, for the reason already said: end with this status.
        case failed(Int32)
    }

    static func draw(_ picture: SwiftProgram.Picture, source: String, file: String) -> Outcome {
        var settings = SwiftProgram.Settings()
        settings.picture = picture
        settings.diagnosticColor = Terminal.colorAllowed(descriptor: 2)
        let (status, summary) = SwiftProgram.runReporting(
            source, display: file == "-" ? "<stdin>" : file, path: file == "-" ? nil : file, settings: settings)
        if status == ExitStatus.scriptErrors { return .failed(status) }
        guard let summary, let drawn = summary.picture else {
            let what: String
            switch picture {
            case .graph: what = "graph"
            case .trace: what = "trace"
            }
            Runner.stderr(
                "kvo-run: \(file): the program ended before its \(what) could be drawn; nothing was written\n")
            return .failed(ExitStatus.failure)
        }
        return .drawn(drawn, status: status, summary: summary)
    }
}
