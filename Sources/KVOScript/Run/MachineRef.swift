import KVOCore

/// The machine as compiled accessors and hooks hold it. The machine owns the
/// classes whose properties and hooks hold these closures, so it outlives every
/// call: a strong capture would be a cycle, and `unowned`, even
/// `unowned(unsafe)`, costs an atomic retain per call (a tenth of a
/// dependency-chain set). So it is kept unretained and borrowed per call.
struct MachineRef {
    private let reference: Unmanaged<Machine>

    init(_ machine: Machine) { reference = .passUnretained(machine) }

    @inline(__always)
    func callAsFunction<T>(_ body: (Machine) throws -> T) rethrows -> T {
        try reference._withUnsafeGuaranteedRef(body)
    }
}
