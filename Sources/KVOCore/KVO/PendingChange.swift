/// A change between its will and did phases; reused once delivered.
final class PendingChange {
    private(set) var object: KVOObject?
    private(set) var key = ""
    private(set) var spec = KVORuntime.ChangeSpec.setting
    /// Roots whose forwarding observances must follow a replaced object.
    var rebuild: [Observance] = []

    /// Taken by its did phase from below the top of the pending stack.
    var isTaken = false

    func start(object: KVOObject, key: String, spec: KVORuntime.ChangeSpec) {
        isTaken = false
        self.object = object
        self.key = key
        // A set's spec is `.setting` on both sides: no enum copy.
        if case .setting = spec, case .setting = self.spec { return }
        self.spec = spec
    }

    /// Recorded notifications in registration order. The first is kept
    /// inline: most changes notify one observance, and an array costs an
    /// allocation or a slow clear per change.
    private(set) var first: PendingRecord?
    private(set) var rest: [PendingRecord] = []
    /// Instead of records: the observed object's observances of the
    /// changed key when the change was announced, all observing it directly
    /// (`ObservationInfo.directSet(of:)`, `observances(triggeredBy:)`).
    private(set) var directObservers: [Observance?]?

    func keepDirectObservers(_ observers: [Observance?]) {
        directObservers = observers
    }

    func append(_ record: PendingRecord) {
        if first == nil { first = record } else { rest.append(record) }
    }

    var records: [PendingRecord] { (first.map { [$0] } ?? []) + rest }
    /// `records.count` and `records.last`, without building `records`
    /// (`--explain` asks at every record).
    var recordCount: Int { (first == nil ? 0 : 1) + rest.count }
    var lastRecord: PendingRecord? { rest.last ?? first }

    /// The old value of the changed key, read once for all direct observances.
    var sharedOld: Value?
    /// Old values of the records that do not share `sharedOld`, by `oldSlot`:
    /// kept apart so a record is a reference and two words, copied and
    /// destroyed without going through `Value`'s witnesses (B2 records
    /// 10,000 per set).
    private var olds: [Value] = []

    func keepOld(_ value: Value) -> Int {
        olds.append(value)
        return olds.count - 1
    }

    func old(of record: PendingRecord) -> Value? {
        switch record.oldSlot {
        case PendingRecord.sharedOld: return sharedOld
        case PendingRecord.noOld: return nil
        default: return olds[record.oldSlot]
        }
    }

    func finish() {
        object = nil
        first = nil
        directObservers = nil
        Value.dispose(&sharedOld)
        // Emptying an empty array still checks its uniqueness: skipped.
        if !rest.isEmpty { rest.removeAllKeepingCapacity() }
        if !olds.isEmpty { olds.removeAllKeepingCapacity() }
        if !rebuild.isEmpty { rebuild.removeAllKeepingCapacity() }
    }
}
