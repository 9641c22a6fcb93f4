import KVOCore
import KVOOutput

#if canImport(Glibc)
import Glibc
#endif

/// The pictures a compiled program's run draws for `kvo-run graph` and
/// `kvo-run trace` (`ProgramChannel.Picture`: see `_KVORunReport`).
final class _KVOPictures {
    /// Where the graph goes, and the line it is drawn after (nil: at the end).
    let graphPath: String?
    let graphAt: Int?
    /// The top-level names that may hold objects, and how to read them now
    /// (`_kvoHolds`): the graph's roots besides the objects bound to names.
    var holders: [String: () -> Any] = [:]
    /// The graph just after the last top-level statement at or before `graphAt`.
    private var snapshot: String?
    /// Where the trace goes, its title, and its rows as the run goes.
    let tracePath: String?
    let traceTitle: String
    let trace: TraceDiagram.Builder?

    init?(_ picture: ProgramChannel.Picture?) {
        switch picture {
        case .graph(let file, let at)?:
            (graphPath, graphAt, tracePath, traceTitle) = (file, at, nil, "")
        case .trace(let file, let title)?:
            (graphPath, graphAt, tracePath, traceTitle) = (nil, nil, file, title)
        case nil:
            return nil
        }
        // The classes of objects bound to names, for a name the trace meets
        // before any event has shown its object (an observer removed before
        // it was told): looked up among the live bound objects.
        trace =
            tracePath == nil
            ? nil
            : TraceDiagram.Builder { name in
                _KVOProcess.shared.boundObjects().first { $0.name == name }?.cls.name
            }
    }

    func add(_ event: Event) {
        trace?.add(event)
    }

    /// A top-level statement starts (`_kvoTopLevel`).
    func statement(line: Int, process: _KVOProcess) {
        if let graphAt, line > graphAt, snapshot == nil {
            snapshot = graph(process)
        }
        if let trace {
            // Past the events drawn, nothing more is explained: the rest of
            // the run goes at full speed.
            if trace.isFull { process.kvo.explains = false }
            trace.startStatement(
                line: line, text: TraceDiagram.statementText(Substring(process.sourceLine(line) ?? "")))
        }
    }

    /// The graph of the bound objects now.
    func graph(_ process: _KVOProcess) -> String {
        process.observationGraph()
    }

    /// At the end of the run: the pictures asked for, written.
    func finish(_ process: _KVOProcess) {
        if let graphPath {
            _KVORunReport.write(snapshot ?? graph(process), to: graphPath)
        }
        if let tracePath, let trace {
            _KVORunReport.write(TraceDiagram.svg(trace, title: traceTitle), to: tracePath)
        }
    }
}
