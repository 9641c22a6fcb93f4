import KVOCore
import KVOOutput

#if canImport(Glibc)
import Glibc
#endif

/// What `kvo-run` asks of a compiled program's run besides its output
/// (KVOOutput's `ProgramChannel`), and gets back in files it names (the
/// program's own standard streams are the program's):
/// - the summary: at the end, the counts `--stats` and `--quiet` say
///   (notifications, objects, statements) and, for a trace, the events
///   drawn and not drawn;
/// - a graph picture (drawn after a given line, or at the end): the
///   observation graph as DOT, for `kvo-run graph`;
/// - a trace picture, titled: the sequence diagram as SVG, for `kvo-run trace`.
/// The pictures are the ones a scenario gets, drawn by the same code
/// (KVOOutput's `ObservationGraph`, `TraceDiagram`) from the same engine state.
enum _KVORunReport {
    /// Registered when the runtime starts: `exit`, the end of the top-level
    /// code, an uncaught exception and a runtime error all pass here; a
    /// signal does not, and kvo-run says that nothing was counted or drawn.
    static func install() {
        atexit { _KVORunReport.finish() }
    }

    static func finish() {
        let process = _KVOProcess.shared
        // The program's last `print(…, terminator: "")`: its text, not lost
        // (a line of its own, as every print event is).
        process.lock.held { _KVOPrinter.endOpenLine(process) }
        // A trace that could not be written (a full disk) is a failed run, as
        // a scenario's is: said, status 1, never a silent status 0. A closed
        // pipe (`| head -1`) is a normal end.
        let written =
            process.output.capture?.finish(depth: process.kvo.depth)
            ?? (fflush(stdout) == 0 && ferror(stdout) == 0)
        let writeError = errno
        defer {
            if !written && writeError != EPIPE {
                fputs("kvo-run: cannot write standard output: \(String(cString: strerror(writeError)))\n", stderr)
                fflush(stderr)
                _exit(1)
            }
        }
        process.output.pictures?.finish(process)
        guard let path = process.summaryPath else { return }
        var summary = ProgramChannel.Summary()
        summary.notifications = process.kvo.notificationCount
        summary.objects = process.kvo.objectCount
        summary.statements = process.statements
        if let trace = process.output.pictures?.trace {
            summary.eventsDrawn = trace.eventsDrawn
            summary.eventsNotDrawn = trace.dropped
        }
        write(summary.encoded, to: path)
    }

    static func write(_ text: String, to path: String) {
        guard let file = fopen(path, "w") else { return }
        fputs(text, file)
        fclose(file)
    }
}

extension _KVOProcess {
    /// The objects bound to top-level names (SPEC §3.1), sorted by name: a
    /// picture's roots, as a scenario's are its global variables. The names
    /// the rewriter gives (`_kvoNamed`, tokens) are the only ones without `#`;
    /// an object no binding names is `Account#2`.
    func boundObjects() -> [KVOObject] {
        var objects: [KVOObject] = []
        for host in hosts.values {
            guard let object = host.object._kvoObject, !object.name.contains("#") else { continue }
            objects.append(object)
        }
        return objects.sorted { $0.name < $1.name }
    }

    /// The observation graph (DOT) of the bound objects now: what `kvo-run
    /// graph` draws, and the REPL's `:graph`.
    func observationGraph() -> String {
        ObservationGraph.dot(
            from: boundObjects(), topLevel: heldAtTopLevel(),
            related: { self.relatedObjects(of: $0) })
    }
}

/// A top-level statement starts: `_kvoAt`, and what a picture draws at
/// statements (`kvo-run graph --at`, the trace's arrows from the program).
@inline(__always)
public func _kvoTopLevel(_ line: Int, _ column: Int, _ callColumn: Int) {
    _kvoAt(line, column, callColumn)
    let process = _KVOProcess.shared
    if let pictures = process.output.pictures { pictures.statement(line: line, process: process) }
}
