#if canImport(Glibc)
import Glibc
#endif
import KVOCore
import KVOHost
import KVOOutput
import KVOScript

/// A run for a picture (`kvo-run graph`, `kvo-run trace`): the trace itself
/// is not printed, it is drawn. Diagnostics, runtime errors and an uncaught
/// exception still reach standard error, so a broken scenario says why.
final class PictureOutput: ScriptOutput {
    let errors: EventRenderer
    /// The trace's rows, built as the run goes (nil for a graph).
    let trace: TraceDiagram.Builder?
    var records: Bool { trace != nil }

    /// `classOf` names the class of an object the trace knows only by name
    /// (an observer removed before it was ever told). `errors` renders what
    /// still appears: standard error, or `kvo-run serve`'s capture.
    init(
        records: Bool, errors: EventRenderer = .standardError(), classOf: @escaping (String) -> String? = { _ in nil }
    ) {
        trace = records ? TraceDiagram.Builder(classOf: classOf) : nil
        self.errors = errors
    }

    /// Events past `TraceDiagram.maxEvents`, counted: the picture and
    /// standard error say how many were not drawn.
    var eventsNotDrawn: Int { trace?.dropped ?? 0 }
    var eventsDrawn: Int { trace?.eventsDrawn ?? 0 }

    func emit(_ event: Event) {
        trace?.add(event)
        if case .exception(_, false) = event { errors.emit(event) }
    }

    func connect(stop: StopFlag) { errors.connect(stop: stop) }

    func report(_ diagnostic: Diagnostic, file: String, source: SourceText) {
        errors.report(diagnostic, file: file, source: source)
    }

    func flush() { errors.flush() }
}
