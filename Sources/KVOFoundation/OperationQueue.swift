import KVOCore

#if canImport(Glibc)
import Glibc
#endif

/// Foundation's `OperationQueue` (`NSOperationQueue`), a kvo-run `NSObject`
/// (SPEC §11.7) that really runs its operations on other threads (Dispatch's
/// global queues), at most `maxConcurrentOperationCount` at once, the ready
/// ones first by `queuePriority`, then in the order they were added.
///
/// KVO-compliant keys, as Apple documents them: `operations`,
/// `operationCount`, `maxConcurrentOperationCount`, `suspended` (Swift's
/// `isSuspended`, observable by either name) and `name`. Adding operations
/// changes `operations` and `operationCount` once per call (`addOperations`
/// with three operations is one change), an operation's end once; the
/// notifications come on the thread that added or ended the operation, as on
/// a Mac. `operations` changes by setting (kind 1), as a recorded Mac log shows.
///
/// A queue starts an operation whose `isReady` is true; it learns that the
/// operation ended only from its `isFinished` notification (`Operation.end`),
/// so an asynchronous operation that never posts one keeps its slot forever,
/// as on a Mac. Barrier blocks wait for every operation added before them and
/// hold back every operation added after.
open class OperationQueue: NSObject {
    /// The operations added and not ended, in the order added.
    private var queued: [Operation] = []
    /// How many queued operations not yet started have each priority (its
    /// raw value): `schedule` stops looking once the free slots are filled
    /// by operations of the highest priority that waits, instead of reading
    /// every queued operation each time one ends (10,000 operations on a
    /// queue of 4 took 4.8 s, quadratic).
    private var waitingPriorities: [Int: Int] = [:]
    /// Operations started and not ended.
    private var running = 0
    private var maximum = OperationQueue.defaultMaxConcurrentOperationCount
    private var suspended = false
    private var ownName: String?
    /// Holds while the queue is empty, for `waitUntilAllOperationsAreFinished`.
    private let isEmpty = _KVOCondition(true)
    /// The main queue runs its operations on the main thread (Dispatch's main
    /// queue), one at a time.
    private let isMainQueue: Bool

    public static let defaultMaxConcurrentOperationCount = -1

    public override init() {
        isMainQueue = false
        super.init()
    }

    private init(main: Void) {
        isMainQueue = true
        maximum = 1
        ownName = "NSOperationQueue Main Queue"
        super.init()
    }

    private static let mainQueue = OperationQueue(main: ())
    open class var main: OperationQueue { mainQueue }

    /// The queue running the current operation, if this thread runs one.
    open class var current: OperationQueue? {
        if let running = _KVOCurrentQueue.value { return running }
        return Thread.isMainThread ? mainQueue : nil
    }

    // MARK: Observable properties

    /// A barrier block is no operation of the queue's, as on a Mac.
    open var operations: [Operation] {
        _KVOProcess.shared.lock.held { queued.filter { !($0 is _KVOBarrierOperation) } }
    }
    open var operationCount: Int { operations.count }

    open var maxConcurrentOperationCount: Int {
        get { _KVOProcess.shared.lock.held { maximum } }
        set {
            change("maxConcurrentOperationCount") { maximum = newValue }
            schedule()
        }
    }

    open var isSuspended: Bool {
        get { _KVOProcess.shared.lock.held { suspended } }
        set {
            change("suspended") { suspended = newValue }
            if !newValue { schedule() }
        }
    }

    /// Apple's default is a string with the queue's address; here with its name (SPEC §3.1).
    open var name: String? {
        get { _KVOProcess.shared.lock.held { ownName ?? "NSOperationQueue \(_kvoObject.name)" } }
        set { change("name") { ownName = newValue } }
    }

    /// A setting's change, notified, under the runtime's lock; the main
    /// queue's settings do not change.
    private func change(_ key: String, _ body: () -> Void) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        guard !isMainQueue else { return }
        willChangeValue(forKey: key)
        body()
        didChangeValue(forKey: key)
    }

    open var qualityOfService: QualityOfService = .default
    open var underlyingQueue: DispatchQueue?

    // MARK: Adding operations

    open func addOperation(_ operation: Operation) {
        addOperations([operation], waitUntilFinished: false)
    }

    open func addOperation(_ block: @escaping () -> Void) {
        addOperation(BlockOperation(block: block))
    }

    open func addOperations(_ operations: [Operation], waitUntilFinished wait: Bool) {
        let process = _KVOProcess.entered()
        for operation in operations {
            let problem =
                operation.queue != nil
                ? "operation is already enqueued on a queue"
                : operation.isExecuting
                    ? "operation is executing and cannot be enqueued"
                    : operation.isFinished ? "operation is finished and cannot be enqueued" : nil
            if let problem {
                process.raise(("NSInvalidArgumentException", "*** -[NSOperationQueue addOperation:]: \(problem)"))
            }
        }
        if !operations.isEmpty {
            let counted = operations.contains { !($0 is _KVOBarrierOperation) }
            if counted {
                willChangeValue(forKey: "operationCount")
                willChangeValue(forKey: "operations")
            }
            for operation in operations {
                operation.queue = self
                queued.append(operation)
                waitingPriorities[operation.priority.rawValue, default: 0] += 1
            }
            if counted {
                didChangeValue(forKey: "operations")
                didChangeValue(forKey: "operationCount")
            }
            schedule()
        }
        process.lock.leave()
        if wait {
            for operation in operations { operation.waitUntilFinished() }
        }
    }

    /// A block that runs once every operation added before it has ended, and
    /// before any added after it starts (`addBarrierBlock`).
    open func addBarrierBlock(_ barrier: @escaping () -> Void) {
        // Atomic: an operation another thread adds meanwhile is before the
        // barrier and waited for, or after it.
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let operation = _KVOBarrierOperation(block: barrier)
        for earlier in queued { operation.addDependency(earlier) }
        addOperation(operation)
    }

    open func cancelAllOperations() {
        for operation in operations { operation.cancel() }
    }

    /// Blocks until the queue is empty; the runtime's lock is given up meanwhile.
    open func waitUntilAllOperationsAreFinished() { isEmpty.wait() }

    // MARK: Running

    /// Starts ready operations while there are free slots: by priority, then
    /// in the order added; none after a barrier that has not run. Called
    /// under the runtime's lock whenever a slot frees or an operation becomes ready.
    func schedule() {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        isEmpty.set(queued.isEmpty)
        guard !suspended else { return }
        let limit = maximum < 0 ? Int.max : maximum
        // No free slot, nothing to start.
        guard running < limit else { return }
        let free = limit - running
        // The highest priority among the operations not started: once the
        // free slots are filled by ready operations of that priority (in
        // the order added), no later one can come before them.
        let highest = waitingPriorities.lazy.filter { $0.value > 0 }.map(\.key).max()
        var candidates: [(operation: Operation, priority: Int)] = []
        var atHighest = 0
        for operation in queued {
            if !operation.dispatched && operation.isReady {
                let priority = operation.priority.rawValue
                candidates.append((operation, priority))
                if priority == highest { atHighest += 1 }
                if atHighest == free { break }
            }
            // Nothing added after a barrier starts before it has run.
            if operation is _KVOBarrierOperation { break }
        }
        // Stable: equal priorities keep the order they were added in.
        let ordered = candidates.enumerated().sorted {
            $0.element.priority != $1.element.priority
                ? $0.element.priority > $1.element.priority : $0.offset < $1.offset
        }
        for (_, candidate) in ordered where running < limit {
            candidate.operation.dispatched = true
            waitingPriorities[candidate.priority, default: 0] -= 1
            running += 1
            dispatch(candidate.operation)
        }
    }

    /// An operation not yet started changed its priority (`queuePriority`).
    func waitingPriorityChanged(from old: Operation.QueuePriority, to new: Operation.QueuePriority) {
        waitingPriorities[old.rawValue, default: 0] -= 1
        waitingPriorities[new.rawValue, default: 0] += 1
    }

    private func dispatch(_ operation: Operation) {
        let work: @Sendable () -> Void = { [self] in
            _KVOCurrentQueue.value = self
            operation.start()
            _KVOCurrentQueue.value = nil
            // swift-corelibs-foundation's safety net: an operation finished by
            // the time start() returned, without telling anyone, still ends.
            let process = _KVOProcess.entered()
            defer { process.lock.leave() }
            if !operation.ended && operation.isFinished { operation.end() }
        }
        if isMainQueue {
            DispatchQueue.main.async(execute: work)
        } else {
            (underlyingQueue ?? DispatchQueue.global(qos: qualityOfService.dispatchQoS)).async(execute: work)
        }
    }

    /// An operation of this queue ended (`Operation.end`): it leaves the
    /// queue, its slot frees, the next ready operations start.
    func operationEnded(_ operation: Operation) {
        guard let index = queued.firstIndex(where: { $0 === operation }) else { return }
        if operation.dispatched {
            running -= 1
        } else {
            waitingPriorities[operation.priority.rawValue, default: 0] -= 1
        }
        let counted = !(operation is _KVOBarrierOperation)
        if counted {
            willChangeValue(forKey: "operationCount")
            willChangeValue(forKey: "operations")
        }
        queued.remove(at: index)
        if counted {
            didChangeValue(forKey: "operations")
            didChangeValue(forKey: "operationCount")
        }
        schedule()
    }

    // MARK: KVO and KVC

    override class func _kvoObjectiveCName(of property: String) -> String? {
        property == "isSuspended" ? "suspended" : nil
    }

    open override class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        switch key {
        case "isSuspended": return ["suspended"]
        case "suspended": return ["isSuspended"]
        default: return super.keyPathsForValuesAffectingValue(forKey: key)
        }
    }

    /// The queue posts its own notifications: none is automatic.
    open override class func automaticallyNotifiesObservers(forKey key: String) -> Bool {
        switch key {
        case "operations", "operationCount", "maxConcurrentOperationCount", "suspended", "isSuspended", "name":
            return false
        default:
            return super.automaticallyNotifiesObservers(forKey: key)
        }
    }

    open override class func _kvoDescribe(_ table: _KVOClassTable) {
        table.property(
            "operations", objc: true, dynamic: false, get: { (o: OperationQueue) in o.operations }, set: nil,
            keyPath: \OperationQueue.operations)
        table.property(
            "operationCount", objc: true, dynamic: false, get: { (o: OperationQueue) in o.operationCount },
            set: nil, keyPath: \OperationQueue.operationCount)
        table.property(
            "maxConcurrentOperationCount", objc: true, dynamic: false,
            get: { (o: OperationQueue) in o.maxConcurrentOperationCount },
            set: { (o: OperationQueue, v: Int) in o.maxConcurrentOperationCount = v },
            keyPath: \OperationQueue.maxConcurrentOperationCount)
        let suspendedGet: (OperationQueue) -> Bool = { $0.isSuspended }
        let suspendedSet: (OperationQueue, Bool) -> Void = { $0.isSuspended = $1 }
        table.property("suspended", objc: true, dynamic: false, get: suspendedGet, set: suspendedSet)
        table.property(
            "isSuspended", objc: true, dynamic: false, get: suspendedGet, set: suspendedSet,
            keyPath: \OperationQueue.isSuspended)
        table.property(
            "name", objc: true, dynamic: false, get: { (o: OperationQueue) in o.name },
            set: { (o: OperationQueue, v: String?) in o.name = v }, keyPath: \OperationQueue.name)
        table.storedProperties { (_: OperationQueue) -> [(String, Any)] in [] }
    }

    /// Apple's: `<NSOperationQueue: 0x…>{name = 'NSOperationQueue 0x…'}`, names for addresses.
    open override var description: String {
        "<\(_kvoObject.cls.runtimeName): \(_kvoObject.name)>{name = '\(name ?? "(null)")'}"
    }
}

/// What `addBarrierBlock` adds: an operation that depends on every earlier one.
final class _KVOBarrierOperation: BlockOperation {}

/// The queue whose operation this thread runs (`OperationQueue.current`).
enum _KVOCurrentQueue {
    private static let slot = _KVOThreadSlot()

    static var value: OperationQueue? {
        get { slot.value as? OperationQueue }
        set { slot.value = newValue }
    }
}

/// An object kept per thread, retained while set.
final class _KVOThreadSlot: @unchecked Sendable {
    private var key = pthread_key_t()

    init() { pthread_key_create(&key, nil) }

    var value: AnyObject? {
        get { pthread_getspecific(key).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() } }
        set {
            if let old = pthread_getspecific(key) { Unmanaged<AnyObject>.fromOpaque(old).release() }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
        }
    }
}

extension QualityOfService {
    var dispatchQoS: DispatchQoS.QoSClass {
        switch self {
        case .userInteractive: return .userInteractive
        case .userInitiated: return .userInitiated
        case .utility: return .utility
        case .background: return .background
        default: return .default
        }
    }
}
