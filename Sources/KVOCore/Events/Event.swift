/// Everything a scenario produces, in program order. The engine and the
/// interpreter report events; an output format (text, JSON Lines) renders them.
public enum Event {
    case notify(object: KVOObject, keyPath: String, observer: KVOObject, change: Change, context: Context?, depth: Int)
    case print(text: String, depth: Int)
    case exception(CocoaException, caught: Bool)
    case observationInfo(object: KVOObject, observances: [ObservanceSnapshot], depth: Int)
    /// A step of the engine's reasoning, only with `KVORuntime.explains` (`--explain`).
    case explain(Explanation, depth: Int)
    /// `graph(o…)`: the observation graph from these objects, drawn now.
    case graph(objects: [KVOObject], depth: Int)

    /// The number of handlers running when it happened.
    public var depth: Int {
        switch self {
        case .notify(_, _, _, _, _, let depth), .print(_, let depth), .observationInfo(_, _, let depth),
            .explain(_, let depth), .graph(_, let depth):
            return depth
        case .exception(let exception, _): return exception.depth
        }
    }
}

/// Receives events. Implementations write them out, count them or collect
/// them. The engine's notifications come this way too (`.notify`): one route.
public protocol EventSink: AnyObject {
    /// `consuming`: the sink owns the event it is handed, so taking a
    /// notification's fields out of it copies none of them.
    func emit(_ event: consuming Event)
}

/// A sink that keeps every event, for tests and embedding.
public final class CollectingSink: EventSink {
    public private(set) var events: [Event] = []
    public init() {}
    public func emit(_ event: consuming Event) { events.append(event) }
}
