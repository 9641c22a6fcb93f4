#if canImport(Glibc)
import Glibc
#endif
import KVOCore
import KVOOutput
import KVOScript

/// DOT to a file, or SVG through Graphviz when it is installed.
///
/// An SVG is rendered into a private temporary folder and put in place by
/// `Files.write` (a temporary file beside it, renamed over it), so `OUT.svg`
/// is replaced only by a complete picture: never half written, never by
/// `dot`'s error output. When `dot` is missing or fails, `OUT.svg` is left
/// as it was and the status is 1 (what was asked for was not made); the DOT
/// goes to `OUT.dot` only when no file of that name exists, so that no file
/// the user did not name is ever overwritten.
enum GraphRendering {
    static let installAdvice = "install Graphviz to render SVG: apt-get install graphviz (or: make setup)"

    /// How long `dot` may take to render (KVO_DOT_SECONDS overrides it):
    /// the graph handed to it is capped, but a dense one still takes long,
    /// and a wait without limit hung `graph -o x.svg` for minutes.
    static var dotSeconds: Double {
        if let text = getenv("KVO_DOT_SECONDS"), let seconds = Double(String(cString: text)), seconds > 0,
            seconds.isFinite
        {
            return seconds
        }
        return 10
    }

    static func write(_ dot: String, to path: String?) -> Int32 {
        guard let path, path.hasSuffix(".svg") else { return PictureFile.write(dot, to: path) }
        switch svg(dot) {
        case .drawn(let svg):
            return PictureFile.write(svg, to: path)
        case .notInstalled:
            return fallBack(dot, path, why: "Graphviz's 'dot' is not installed", advice: installAdvice)
        case .noTemporaryFolder(let why):
            Runner.stderr("kvo-run: cannot render \(path): cannot make a temporary folder (\(why))\n")
            return ExitStatus.failure
        case .cannotWrite(let status):
            return status
        case .timedOut(let program):
            let limit =
                dotSeconds == dotSeconds.rounded() && dotSeconds < 1e9 ? String(Int(dotSeconds)) : "\(dotSeconds)"
            return fallBack(
                dot, path, why: "'\(program)' took more than \(limit) s to render it and was stopped",
                advice: nil, hint: "draw fewer objects, or render it yourself with dot -Tsvg")
        case .failed(let program):
            return fallBack(dot, path, why: "'\(program)' failed to render it", advice: nil)
        }
    }

    /// What rendering a DOT graph as SVG gave.
    enum Rendering: Equatable {
        case drawn(String)
        /// Graphviz's `dot` is not on PATH.
        case notInstalled
        case noTemporaryFolder(String)
        /// The DOT could not be written for `dot` (said on standard error).
        case cannotWrite(Int32)
        case timedOut(program: String)
        case failed(program: String)
    }

    /// `dot` as SVG through Graphviz, rendered in a private temporary folder
    /// (`write`, `kvo-run serve`).
    static func svg(_ dot: String) -> Rendering {
        guard let program = ExternalTool.find("dot") else { return .notInstalled }
        guard let folder = Files.temporaryFolder() else { return .noTemporaryFolder(Files.errorText(errno)) }
        defer { Files.removeFolder(folder) }
        let dotFile = folder + "/graph.dot", svgFile = folder + "/graph.svg"
        let status = PictureFile.write(dot, to: dotFile)
        guard status == ExitStatus.success else { return .cannotWrite(status) }
        // `dot` renders in a private folder; the picture is put in place only
        // when complete, so a failed or killed `dot` leaves the earlier one.
        switch ExternalTool.run(program, ["-Tsvg", dotFile, "-o", svgFile], seconds: dotSeconds) {
        case .exited(0):
            guard let svg = try? Files.read(svgFile, regularOnly: true, limit: maxSVGBytes) else {
                return .failed(program: program)
            }
            return .drawn(svg)
        case .timedOut:
            return .timedOut(program: program)
        case .exited, .failed:
            return .failed(program: program)
        }
    }

    /// The most SVG read back from `dot`.
    static let maxSVGBytes = 256 << 20

    /// `path` (an .svg) could not be drawn: says why, and writes the DOT
    /// beside it as `X.dot` unless a file of that name is there already.
    static func fallBack(_ dot: String, _ path: String, why: String, advice: String?, hint: String? = nil) -> Int32 {
        let dotPath = String(path.dropLast(4)) + ".dot"
        var message = "kvo-run: \(why), so \(path) was not drawn (left as it was); "
        if Files.exists(dotPath) {
            message +=
                "\(dotPath) exists and was left alone; write the DOT with '-o \(dotPath)' or pipe it"
                + " from 'kvo-run graph FILE'"
        } else if PictureFile.write(dot, to: dotPath) == ExitStatus.success {
            message += "its DOT is in \(dotPath)"
        } else {
            return ExitStatus.failure
        }
        if let advice { message += ". To get \(path), " + advice }
        if let hint { message += " (" + hint + ")" }
        Runner.stderr(message + "\n")
        return ExitStatus.failure
    }
}
