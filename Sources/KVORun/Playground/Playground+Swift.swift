#if canImport(Glibc)
import Glibc
#endif
import KVOCore
import KVOOutput
import KVOScript

/// A Swift program in the playground (`--allow-swift` only): compiled and
/// run by a child kvo-run exactly as `kvo-run - < program.swift` runs it,
/// with the request's time limit as `--timeout` and, through `prlimit` when
/// util-linux has it, a memory limit on the child and what it starts. The
/// program is arbitrary code: it runs as the server's user, which is why it
/// needs the flag.
extension Playground {
    /// Seconds a Swift request may take: compiling is part of it (the
    /// runtime's one-time build is not: the child bounds that itself).
    static let swiftSeconds: Double = 60

    func runSwift(_ source: String, line: Int?) -> Answer {
        guard let folder = Files.temporaryFolder() else {
            return .error(500, "cannot make a temporary folder for the program (\(Files.errorText(errno)))")
        }
        defer { Files.removeFolder(folder) }
        let program = folder + "/" + Self.programName
        guard (try? Files.write(source, to: program)) != nil else {
            return .error(500, "cannot write the program to \(folder)")
        }
        let run = child(["--no-color", "--timeout", seconds, "-"], program: program, folder: folder)
        let explained = child(["--no-color", "--explain", "--timeout", seconds, "-"], program: program, folder: folder)
        let fields: [(String, String)] = [
            ("language", JSONFormat.string("swift")), ("status", String(run.status)),
            ("output", JSONFormat.string(run.text)),
            ("diagnostics", "[" + Self.diagnostics(in: run.text).map(\.json).joined(separator: ",") + "]"),
            ("statements", "[]"), ("explain", JSONFormat.string(explained.text)),
            ("graph", swiftPicture(source, .graph(at: line), line: line, program: program, folder: folder)),
            ("trace", swiftPicture(source, .trace, line: line, program: program, folder: folder)),
        ]
        return Answer(status: 200, json: JSONFormat.object(fields))
    }

    enum SwiftPictureKind {
        case graph(at: Int?)
        case trace
    }

    /// The graph (`{"line", "svg", "dot"}`) or the trace (`{"svg"}`) of a
    /// program, drawn by `kvo-run graph` or `kvo-run trace` as a child.
    func swiftPicture(_ source: String, _ kind: SwiftPictureKind, line: Int?) -> String {
        guard let folder = Files.temporaryFolder() else { return "null" }
        defer { Files.removeFolder(folder) }
        let program = folder + "/" + Self.programName
        guard (try? Files.write(source, to: program)) != nil else { return "null" }
        return swiftPicture(source, kind, line: line, program: program, folder: folder)
    }

    private func swiftPicture(
        _ source: String, _ kind: SwiftPictureKind, line: Int?, program: String, folder: String
    ) -> String {
        switch kind {
        case .graph(let at):
            let out = folder + "/graph.dot"
            let arguments = ["graph"] + (at.map { ["--at", String($0)] } ?? []) + ["-o", out, "-"]
            guard child(arguments, program: program, folder: folder, limited: true).status == ExitStatus.success,
                let dot = try? Files.read(out, regularOnly: true, limit: GraphRendering.maxSVGBytes)
            else { return "null" }
            return graphAnswer(dot: dot, line: line)
        case .trace:
            let out = folder + "/trace.svg"
            _ = child(["trace", "-o", out, "-"], program: program, folder: folder, limited: true)
            guard let svg = try? Files.read(out, regularOnly: true, limit: GraphRendering.maxSVGBytes) else {
                return "null"
            }
            return JSONFormat.object([("svg", JSONFormat.string(svg))])
        }
    }

    private var seconds: String { SwiftProgram.formatSeconds(Self.swiftSeconds) }

    /// Runs this kvo-run with `arguments`, the program on standard input;
    /// its status and what it wrote (both streams, cut at the output limit).
    /// `limited`: `graph` and `trace`, which take no `--timeout`, are killed
    /// with what they started when `swiftSeconds` pass (the run before them
    /// compiled the program, so this is the program's time).
    private func child(
        _ arguments: [String], program: String, folder: String, limited: Bool = false
    ) -> (status: Int32, text: String) {
        guard let executable = RuntimeCache.executablePath() else {
            return (ExitStatus.failure, "kvo-run: cannot find its own executable to run the program\n")
        }
        let outputPath = folder + "/output-\(arguments.count).txt"
        let descriptor = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return (ExitStatus.failure, "kvo-run: cannot write \(outputPath): \(Files.errorText(errno))\n")
        }
        var command = executable
        var argv = arguments
        if let prlimit = ExternalTool.find("prlimit") {
            command = prlimit
            argv = ["--data=\(limits.swiftMemoryBytes)", "--", executable] + arguments
        }
        let ending = ChildProcess.run(
            command, argv, output: descriptor, deadline: limited ? Deadline(seconds: Self.swiftSeconds) : .none,
            ownGroup: limited, standardInput: program)
        close(descriptor)
        var text = (try? Files.read(outputPath, regularOnly: true, limit: limits.maxOutputBytes)) ?? ""
        let status: Int32
        switch ending {
        case .exited(let code): status = code
        case .signaled(let signal):
            status = ExitStatus.failure
            text += "kvo-run: the run was stopped by \(ChildProcess.describe(signal: signal))\n"
        case .timedOut:
            status = ExitStatus.failure
            text += "kvo-run: the run took too long and was stopped\n"
        case .notStarted(let why):
            status = ExitStatus.failure
            text += "kvo-run: cannot start kvo-run for the program: \(why)\n"
        }
        return (status, text)
    }

    /// `<stdin>:L:C: severity: message` lines of a child's output, as the
    /// page shows them at their line.
    static func diagnostics(in text: String) -> [PlaygroundDiagnostic] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("<stdin>:") else { return nil }
            let parts = line.dropFirst("<stdin>:".count).split(separator: ":", maxSplits: 3)
            guard parts.count == 4, let row = Int(parts[0]), let column = Int(parts[1]) else { return nil }
            let severity = parts[2].trimmingCharacters(in: " ")
            guard ["error", "warning", "note"].contains(severity) else { return nil }
            return PlaygroundDiagnostic(
                severity: severity, line: row, column: column, message: parts[3].trimmingCharacters(in: " "))
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
