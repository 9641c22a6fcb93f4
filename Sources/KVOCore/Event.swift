/// Everything a scenario produces, in program order. The engine and the
/// interpreter report events; an output format (text, JSON Lines) renders them.
public enum Event {
    case notify(object: KVOObject, keyPath: String, observer: KVOObject, change: Change, context: Context?, depth: Int)
    case print(text: String, depth: Int)
    case exception(CocoaException, caught: Bool)
    case observationInfo(object: KVOObject, observances: [ObservanceSnapshot], depth: Int)
}

/// Receives events. Implementations write them out, count them or collect them.
public protocol EventSink: AnyObject {
    func emit(_ event: Event)
    /// A notification. The engine calls this rather than `emit(.notify(…))`:
    /// a sink that writes the trace takes the parts as they are, without an
    /// `Event` built and taken apart per notification.
    func notify(object: KVOObject, keyPath: String, observer: KVOObject, change: Change, context: Context?, depth: Int)
}

extension EventSink {
    public func notify(object: KVOObject, keyPath: String, observer: KVOObject, change: Change, context: Context?, depth: Int) {
        emit(.notify(object: object, keyPath: keyPath, observer: observer, change: change, context: context, depth: depth))
    }
}

/// A sink that keeps every event, for tests and embedding.
public final class CollectingSink: EventSink {
    public private(set) var events: [Event] = []
    public init() {}
    public func emit(_ event: Event) { events.append(event) }
}
