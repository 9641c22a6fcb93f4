/// Counts the work done inside one statement by primitives whose cost a
/// scenario controls (comparing, describing, mapping or joining huge values),
/// so the interpreter's limits (`--max-steps`, Ctrl-C), which it checks
/// between statements, also stop a statement that would run for hours.
///
/// The engine knows nothing of those limits: the interpreter installs
/// `onChunk`, called once per `chunk` units with the number of chunks used;
/// it throws to stop the work.
public final class WorkMeter {
    public static let chunk = 4096
    @usableFromInline var credit = WorkMeter.chunk
    public var onChunk: ((Int) throws -> Void)?

    public init() {}

    /// Charges `units` of work: a decrement, and a call once per chunk.
    @inlinable @inline(__always)
    public func charge(_ units: Int = 1) throws {
        credit &-= units
        if credit <= 0 { try refill() }
    }

    @usableFromInline
    func refill() throws {
        let chunks = 1 + (-credit) / WorkMeter.chunk
        credit = WorkMeter.chunk
        try onChunk?(chunks)
    }
}
