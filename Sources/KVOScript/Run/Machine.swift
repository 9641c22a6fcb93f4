import KVOCore

/// The running state of a scenario: globals, the current frame, limits.
public final class Machine {
    public let kvo: KVORuntime
    var globals: [Value] = []
    /// Locals of every active call, innermost last: slot `i` of the running
    /// call is `stack[base + i]`. One growing array rather than a frame object
    /// per call, so a call (a computed getter, say) allocates nothing once the
    /// stack has grown. Nothing keeps a call's locals after it returns.
    var stack: [Value] = []
    var base = 0
    /// `self` of the running method or accessor; nil at top level.
    ///
    /// Unretained: every call that sets it receives the object as an argument,
    /// which the caller keeps alive until the call returns, and puts the
    /// previous value back before returning. Reading it through `withSelf`
    /// retains nothing; a strong reference cost a retain and a release at each
    /// read of a property of `self`, and `unowned(unsafe)` an atomic retain.
    private var currentSelf: Unmanaged<KVOObject>?

    /// `self` as a strong reference, for the places that keep or pass it on.
    var selfObject: KVOObject? { currentSelf?.takeUnretainedValue() }

    /// Runs `body` on `self`, borrowed.
    @inline(__always)
    func withSelf<T>(_ body: (KVOObject) throws -> T) throws -> T {
        guard let current = currentSelf else { throw ScriptError.runtime(.selfUnavailable) }
        return try current._withUnsafeGuaranteedRef(body)
    }

    /// Makes `object` the running call's `self` and returns the caller's, to
    /// hand back to `restoreSelf` when the call returns.
    @inline(__always)
    func enterSelf(_ object: KVOObject?) -> Unmanaged<KVOObject>? {
        let outer = currentSelf
        currentSelf = object.map { Unmanaged.passUnretained($0) }
        return outer
    }

    @inline(__always)
    func restoreSelf(_ outer: Unmanaged<KVOObject>?) { currentSelf = outer }
    var callDepth = 0
    /// The owner of a collection receiving a built-in call (`dept.employees`),
    /// set by the call site for the call's duration; nil otherwise.
    var receiverOwner: CollectionOwner?
    /// What `print(…, terminator:)` wrote after the last line break: the
    /// start of a line the next print continues.
    var pendingPrint: String?
    /// Scenario classes by their engine class, for dynamic method dispatch.
    var classes: [ObjectIdentifier: ScriptClass] = [:]
    /// The live `observe` tokens and their class.
    let tokens = ObserveTokens()
    public private(set) var steps = 0
    /// `--max-steps`; Int.max when unlimited.
    public var maxSteps = Int.max {
        didSet { stepBudget = maxSteps == Int.max ? Int.max : maxSteps &- min(maxSteps, workSteps) }
    }
    /// Statements still allowed: `maxSteps` less the steps charged for work
    /// inside statements (`WorkMeter`, one step per chunk of work).
    private var stepBudget = Int.max
    private var workSteps = 0

    /// Ctrl-C, a time limit and failed output: checked at every statement.
    let stop: StopFlag
    /// What a stop for `.timeLimit` says (RunOptions.timeLimit).
    var timeLimit: RunOptions.TimeLimit?

    init(kvo: KVORuntime, stop: StopFlag) {
        self.kvo = kvo
        self.stop = stop
        // A comparison, description or KVC call over a huge value runs inside
        // one statement: it is charged here, a step per chunk of work, so
        // --max-steps and Ctrl-C stop it too.
        kvo.work.onChunk = { [weak self] chunks in try self?.chargeWork(chunks) }
        kvo.runtimeClassName = { [weak self] object in try self?.runtimeClassName(object) ?? object.cls.name }
    }

    private func chargeWork(_ chunks: Int) throws {
        if stop.isSet { try stopRequested() }
        guard maxSteps != Int.max else { return }
        workSteps &+= chunks
        stepBudget = maxSteps &- min(maxSteps, workSteps)
        if steps &+ workSteps > maxSteps {
            throw ScriptError.runtime(.stepsExceeded(maxSteps: maxSteps, chunk: WorkMeter.chunk))
        }
    }

    deinit {
        for index in globals.indices { Value.dispose(&globals[index]) }
        popLocals(to: 0)
    }

    /// Statements of earlier REPL entries: each entry has the whole limit.
    private var earlierSteps = 0
    /// Statements executed since the session started.
    var totalSteps: Int { earlierSteps &+ steps }

    /// Starts counting toward the limit afresh (a new REPL entry).
    func restartStepLimit() {
        earlierSteps &+= steps
        steps = 0
        workSteps = 0
        stepBudget = maxSteps
    }

    /// Counts a statement and enforces `--max-steps` and Ctrl-C.
    @inline(__always)
    func step() throws {
        steps &+= 1
        if steps > stepBudget || stop.isSet {
            if stop.isSet { try stopRequested() }
            throw ScriptError.runtime(.statementsExceeded(maxSteps: maxSteps))
        }
    }

    /// Ends the run for what `stop` asks: an interrupt is consumed; failed
    /// output stays requested, so every later statement stops too, until the
    /// next `Session.run` clears it.
    private func stopRequested() throws {
        switch stop.pending {
        case .outputFailed?:
            throw ScriptError.runtime(.outputUnwritable)
        case .interrupt?:
            stop.clear()
            throw ScriptError.runtime(.interrupted)
        case .timeLimit?:
            // Consumed, as an interrupt: the statements `--keep-going` runs
            // next, or a REPL's next entry, start afresh.
            stop.clear()
            throw ScriptError.runtime(
                .timeLimitPassed(seconds: timeLimit?.seconds ?? 0, setBy: timeLimit?.setBy ?? "the time limit"))
        case nil:
            return
        }
    }

    func emit(_ event: Event) { kvo.sink.emit(event) }

    /// Calls a scenario function or method with a fresh frame.
    func invoke(_ function: FunctionBox, selfObject: KVOObject?, arguments: [Value]) throws -> Value {
        guard callDepth < kvo.maxDepth else {
            throw ScriptError.runtime(.methodCallsTooDeep(maxDepth: kvo.maxDepth))
        }
        guard let body = function.body else {
            throw ScriptError.runtime(.functionUnavailable(function.name))
        }
        if let selfObject, selfObject.isReleased {
            throw ScriptError.runtime(
                .messageToDeallocated(
                    className: selfObject.cls.name, selector: function.name, instance: selfObject.description))
        }
        guard arguments.count == function.parameters.count else {
            throw ScriptError.runtime(
                .argumentCount(function: function.name, parameters: function.parameters.count, given: arguments.count))
        }
        try kvo.stackGuard.check("method calls")
        let newBase = stack.count
        stack.append(contentsOf: arguments)
        return try inFrame(base: newBase, size: function.frameSize, selfObject: selfObject) { try body($0) ?? .null }
    }

    /// Runs `body` as a call whose locals start at `newBase` (its arguments
    /// already pushed there), then pops them and restores the caller's frame.
    @inline(__always)
    func inFrame(
        base newBase: Int, size: Int, selfObject newSelf: KVOObject?, _ body: (Machine) throws -> Value
    ) throws -> Value {
        while stack.count < newBase + size { stack.append(.null) }
        let savedBase = base
        let savedSelf = enterSelf(newSelf)
        base = newBase
        callDepth += 1
        defer {
            popLocals(to: newBase)
            base = savedBase
            restoreSelf(savedSelf)
            callDepth -= 1
        }
        return try body(self)
    }

    /// A local of the running call.
    @inline(__always)
    func local(_ slot: Int) -> Value { stack[base &+ slot] }

    func popLocals(to newCount: Int) {
        while stack.count > newCount {
            var value = stack.removeLast()
            Value.dispose(&value)
        }
    }
}
