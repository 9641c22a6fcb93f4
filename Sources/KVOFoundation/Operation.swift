import KVOCore

#if canImport(Glibc)
import Glibc
#endif

/// Foundation's `Operation` (`NSOperation`), a kvo-run `NSObject` (SPEC
/// §11.7). Apple documents these keys as KVO-compliant: `isCancelled`,
/// `isAsynchronous`, `isExecuting`, `isFinished`, `isReady`, `dependencies`,
/// `queuePriority`, `completionBlock`. Each state key is also observable by its
/// Objective-C property name (`finished`, which `#keyPath(Operation.isFinished)`
/// and `\.isFinished` name on a Mac): the two spellings are dependent keys of
/// each other, so an observer of either hears a change posted under either
/// (swift-corelibs-foundation treats them as one key too; Apple does not say).
///
/// Foundation's own notifications, where Apple posts them and in
/// swift-corelibs-foundation's order (Apple does not document its order):
/// `start()` posts `isExecuting` (true), calls `main()`, then `isExecuting`
/// (false) and `isFinished` (true), or only `isFinished` when the operation was
/// cancelled first; `cancel()` posts `isCancelled`, and `isReady` when a
/// waiting operation becomes ready by it; `addDependency(_:)` and
/// `removeDependency(_:)` post `dependencies` and `isReady`; a dependency's
/// end posts `isReady` on each operation it made ready, on the finishing thread.
///
/// An operation learns that it ended, and tells its queue, only from an
/// `isFinished` (or `finished`) notification (`didChangeValue`), as a queue
/// does on a Mac: an asynchronous subclass that changes its state without
/// posting one stays on its queue forever, as Apple's documentation warns.
///
/// `cancel()` of an operation outside a queue marks it cancelled and ready,
/// not finished: swift-corelibs-foundation's behaviour and its test
/// (`test_CancelOutOfQueue`); Apple's page says "marks the object as finished",
/// which its own start() contradicts (a cancelled operation is finished by start()).
open class Operation: NSObject {
    enum State: Int, Comparable {
        case initial, executing, finished
        static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    // Foundation's own state, guarded by the runtime's lock.
    private var state = State.initial
    private var cancelled = false
    private var ownDependencies: [Operation] = []
    /// Dependencies not finished yet: `isReady` is Foundation's "all
    /// finished", kept as a set so that each end posts `isReady` once, as the
    /// last one finishes.
    private var unfinishedDependencies: Set<ObjectIdentifier> = []
    /// Operations waiting for this one (weakly: a dependent holds its dependencies).
    private var dependents: [_KVOWeakOperation] = []
    /// The queue this operation is on, from `addOperation` to its end.
    weak var queue: OperationQueue?
    /// Whether the queue has started it (a queue starts each operation once).
    var dispatched = false
    /// Whether its end was handled (dependents told, queue told, waiters woken).
    private(set) var ended = false
    /// Holds once it ended, for `waitUntilFinished`.
    private let hasEnded = _KVOCondition(false)
    private(set) var priority = QueuePriority.normal

    public override init() {
        super.init()
        _kvoWatchesChanges = true
    }

    // MARK: State

    open var isExecuting: Bool { _KVOProcess.shared.lock.held { state == .executing } }
    open var isFinished: Bool { _KVOProcess.shared.lock.held { state == .finished } }
    open var isCancelled: Bool { _KVOProcess.shared.lock.held { cancelled } }
    open var isAsynchronous: Bool { false }
    open var isConcurrent: Bool { isAsynchronous }

    /// Every dependency finished (or the operation cancelled, which makes it
    /// ready at once so that its queue can clear it out).
    open var isReady: Bool { _KVOProcess.shared.lock.held { unfinishedDependencies.isEmpty || cancelled } }

    /// Atomic, as Apple's: read and set under the runtime's lock.
    open var name: String? {
        get { _KVOProcess.shared.lock.held { ownName } }
        set { _KVOProcess.shared.lock.held { ownName = newValue } }
    }
    private var ownName: String?
    open var completionBlock: (() -> Void)? {
        willSet { willChangeValue(forKey: "completionBlock") }
        didSet { didChangeValue(forKey: "completionBlock") }
    }
    open var qualityOfService: QualityOfService = .default
    open var threadPriority: Double = 0.5

    /// `QueuePriority`: a value between the constants moves toward `normal`,
    /// stopping at the first constant (Apple's documentation; corelibs' rule).
    open var queuePriority: QueuePriority {
        get { _KVOProcess.shared.lock.held { priority } }
        set {
            willChangeValue(forKey: "queuePriority")
            _KVOProcess.shared.lock.held {
                let old = priority
                priority = newValue
                if !dispatched { queue?.waitingPriorityChanged(from: old, to: newValue) }
            }
            didChangeValue(forKey: "queuePriority")
        }
    }

    public enum QueuePriority: Int, Sendable {
        case veryLow = -8, low = -4, normal = 0, high = 4, veryHigh = 8

        /// Any value, as Swift imports Objective-C's NS_ENUM (never nil): a
        /// value between the constants moves toward `.normal`, stopping at
        /// the first constant, as Operation's setter adjusts it on a Mac.
        public init?(rawValue: Int) {
            switch rawValue {
            case 8...: self = .veryHigh
            case 4..<8: self = .high
            case -3..<4: self = .normal
            case -7 ... -4: self = .low
            default: self = .veryLow
            }
        }
    }

    // MARK: Running

    /// Runs `main()` and moves the state around it (see the type's comment).
    /// A cancelled or finished operation does not run; one executing, or not
    /// ready, raises NSInvalidArgumentException as on a Mac.
    open func start() {
        let process = _KVOProcess.entered()
        if state == .finished {
            process.lock.leave()
            return
        }
        if state == .executing || !isReady {
            let why = state == .executing ? "receiver is already executing" : "receiver is not yet ready to execute"
            process.raise(
                ("NSInvalidArgumentException", "*** -[\(process.runtimeClassName(_kvoObject)) start]: \(why)"))
        }
        if isCancelled {
            willChangeValue(forKey: "isFinished")
            state = .finished
            didChangeValue(forKey: "isFinished")
            process.lock.leave()
            return
        }
        willChangeValue(forKey: "isExecuting")
        state = .executing
        didChangeValue(forKey: "isExecuting")
        process.lock.leave()
        main()
        process.lock.enter()
        defer { process.lock.leave() }
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        state = .finished
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }

    /// The work, for a subclass to override; Operation's does nothing.
    open func main() {}

    /// Marks the operation cancelled (it stays to be started, and start()
    /// finishes it without running `main()`); a waiting operation becomes ready.
    open func cancel() {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        guard !cancelled, state != .finished else { return }
        let becomesReady = !unfinishedDependencies.isEmpty && state == .initial
        if becomesReady { willChangeValue(forKey: "isReady") }
        willChangeValue(forKey: "isCancelled")
        cancelled = true
        didChangeValue(forKey: "isCancelled")
        if becomesReady { didChangeValue(forKey: "isReady") }
    }

    /// Blocks until the operation ends (its `isFinished` notification). The
    /// runtime's lock is given up meanwhile: the operation ends on another thread.
    open func waitUntilFinished() { hasEnded.wait() }

    // MARK: Dependencies

    open var dependencies: [Operation] { _KVOProcess.shared.lock.held { ownDependencies } }

    open func addDependency(_ operation: Operation) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let waits = !operation.ended && !operation.isFinished && !cancelled
        let becomesWaiting = waits && unfinishedDependencies.isEmpty && state == .initial
        willChangeValue(forKey: "dependencies")
        if becomesWaiting { willChangeValue(forKey: "isReady") }
        ownDependencies.append(operation)
        if waits {
            unfinishedDependencies.insert(ObjectIdentifier(operation))
            operation.dependents.append(_KVOWeakOperation(self))
        }
        if becomesWaiting { didChangeValue(forKey: "isReady") }
        didChangeValue(forKey: "dependencies")
    }

    open func removeDependency(_ operation: Operation) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        guard let index = ownDependencies.firstIndex(where: { $0 === operation }) else { return }
        let waited = unfinishedDependencies.contains(ObjectIdentifier(operation))
        let becomesReady = waited && unfinishedDependencies.count == 1 && !cancelled
        willChangeValue(forKey: "dependencies")
        if becomesReady { willChangeValue(forKey: "isReady") }
        ownDependencies.remove(at: index)
        unfinishedDependencies.remove(ObjectIdentifier(operation))
        operation.dependents.removeAll { $0.operation === self || $0.operation == nil }
        if becomesReady { didChangeValue(forKey: "isReady") }
        didChangeValue(forKey: "dependencies")
    }

    /// A dependency ended: the last one to end makes this operation ready.
    private func dependencyEnded(_ operation: Operation) {
        guard unfinishedDependencies.contains(ObjectIdentifier(operation)) else { return }
        let becomesReady = unfinishedDependencies.count == 1 && !cancelled
        if becomesReady { willChangeValue(forKey: "isReady") }
        unfinishedDependencies.remove(ObjectIdentifier(operation))
        if becomesReady { didChangeValue(forKey: "isReady") }
    }

    // MARK: Hearing its own notifications

    /// Every change of this operation's keys ends here, under the runtime's
    /// lock, after its observers were told (`NSObject.didChangeValue`, a
    /// dynamic property's setter): an `isFinished` that became true ends it;
    /// an `isReady` that became true lets its queue start it.
    override func _kvoDidChange(_ key: String) {
        switch key {
        case "isFinished", "finished":
            if !ended && isFinished { end() }
        case "isReady", "ready":
            if let queue, !ended, isReady { queue.schedule() }
        default:
            break
        }
    }

    /// The operation ended: its dependents are told, then its queue, then
    /// whoever waits for it; its completion block runs on another thread.
    func end() {
        ended = true
        if state < .finished { state = .finished }
        for dependent in dependents { dependent.operation?.dependencyEnded(self) }
        dependents = []
        queue?.operationEnded(self)
        queue = nil
        hasEnded.set(true)
        if let block = completionBlock {
            DispatchQueue.global().async { block() }
        }
    }

    // MARK: KVO and KVC

    /// Each state key and its Objective-C name (`finished`) affect each other.
    open override class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        if let alias = Operation.aliases[key] { return [alias] }
        return super.keyPathsForValuesAffectingValue(forKey: key)
    }

    override class func _kvoObjectiveCName(of property: String) -> String? {
        property.hasPrefix("is") ? objectiveCNames[property] : nil
    }

    static let objectiveCNames = [
        "isFinished": "finished", "isExecuting": "executing", "isReady": "ready", "isCancelled": "cancelled",
        "isAsynchronous": "asynchronous", "isConcurrent": "concurrent",
    ]

    /// The four state keys that change, each to its other name and back.
    static let aliases: [String: String] = {
        var aliases: [String: String] = [:]
        for key in ["isFinished", "isExecuting", "isReady", "isCancelled"] {
            guard let name = objectiveCNames[key] else { continue }
            aliases[key] = name
            aliases[name] = key
        }
        return aliases
    }()

    /// Operation posts its own notifications (`willChangeValue` around each
    /// change): none is automatic.
    open override class func automaticallyNotifiesObservers(forKey key: String) -> Bool {
        switch key {
        case "isFinished", "finished", "isExecuting", "executing", "isReady", "ready", "isCancelled", "cancelled",
            "dependencies", "queuePriority", "completionBlock":
            return false
        default:
            return super.automaticallyNotifiesObservers(forKey: key)
        }
    }

    open override class func _kvoDescribe(_ table: _KVOClassTable) {
        let states: [(String, (Operation) -> Bool)] = [
            ("isFinished", { $0.isFinished }), ("isExecuting", { $0.isExecuting }), ("isReady", { $0.isReady }),
            ("isCancelled", { $0.isCancelled }), ("isAsynchronous", { $0.isAsynchronous }),
            ("isConcurrent", { $0.isConcurrent }),
        ]
        for (swiftName, get) in states {
            table.property(swiftName, objc: true, dynamic: false, get: get, set: nil)
            if let objectiveCName = objectiveCNames[swiftName] {
                table.property(objectiveCName, objc: true, dynamic: false, get: get, set: nil)
            }
        }
        table.property(
            "dependencies", objc: true, dynamic: false, get: { (o: Operation) in o.dependencies }, set: nil,
            keyPath: \Operation.dependencies)
        table.property(
            "queuePriority", objc: true, dynamic: false, get: { (o: Operation) in o.queuePriority.rawValue },
            set: { (o: Operation, v: Int) in o.queuePriority = QueuePriority(rawValue: v) ?? .normal })
        table.property(
            "name", objc: true, dynamic: false, get: { (o: Operation) in o.name },
            set: { (o: Operation, v: String?) in o.name = v }, keyPath: \Operation.name)
        table.storedProperties { (_: Operation) -> [(String, Any)] in [] }
    }

    /// Apple's: `<NSBlockOperation: 0x…>{name = 'download'}`, a name for the address.
    open override var description: String {
        let base = "<\(_kvoObject.cls.runtimeName): \(_kvoObject.name)>"
        return base + "{name = '\(name.map { $0 } ?? "(null)")'}"
    }
}

/// A dependent held weakly by the operation it waits for.
struct _KVOWeakOperation {
    weak var operation: Operation?
    init(_ operation: Operation) { self.operation = operation }
}

/// `BlockOperation`: runs its blocks, concurrently with each other on a Mac
/// (here one after the other, in the order added), and finishes when all have.
open class BlockOperation: Operation {
    private var blocks: [() -> Void] = []

    public override init() {
        super.init()
    }

    public convenience init(block: @escaping () -> Void) {
        self.init()
        blocks.append(block)
    }

    open func addExecutionBlock(_ block: @escaping () -> Void) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        if isExecuting || isFinished {
            process.raise(
                (
                    "NSInvalidArgumentException",
                    "*** -[NSBlockOperation addExecutionBlock:]: blocks cannot be added after the operation has started executing or finished"
                ))
        }
        blocks.append(block)
    }

    open var executionBlocks: [() -> Void] { _KVOProcess.shared.lock.held { blocks } }

    open override func main() {
        for block in executionBlocks { block() }
    }
}
