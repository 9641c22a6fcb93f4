// The thread-stress program of `make test-tsan` (scripts/tsan-stress): KVO and
// KVC from several threads at once, as a kvo-run user would write it. Every
// thread works on objects of its own, and all of them on a shared `bank`
// (its sets under the program's own lock, its observers added and removed
// by each thread without one, as Apple allows). The program itself is free
// of data races (its counts are kept under its own NSLock), so whatever
// ThreadSanitizer reports is the runtime's. Its output is deterministic:
// threads print only identical lines, and the totals are printed after
// every thread joined; the trace's notification lines (whose order depends
// on the threads) are counted by the lane, not compared line by line.
// Phase 3 does the same with Operation, BlockOperation and OperationQueue
// (the runtime's own classes): queues fed and waited for from several
// threads, asynchronous operations, dependencies, suspension and
// cancellation, a barrier. What the lane compares must not depend on the
// threads either: the number of notifications, of objects made and of
// statements run (so no loop polls, and an asynchronous operation's getters
// are one expression each, which kvo-run does not mark as a statement).
import Foundation

/// Counts by kind, behind the program's own lock.
final class Tally {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func add(_ kind: String, _ amount: Int = 1) {
        lock.lock()
        counts[kind, default: 0] += amount
        lock.unlock()
    }

    func value(_ kind: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[kind] ?? 0
    }
}

/// Waits for `count` threads to say they are done (a pthread condition).
final class Countdown {
    private let condition = NSCondition()
    private var remaining: Int

    init(_ count: Int) { remaining = count }

    func done() {
        condition.lock()
        remaining -= 1
        condition.broadcast()
        condition.unlock()
    }

    func wait() {
        condition.lock()
        while remaining > 0 { condition.wait() }
        condition.unlock()
    }
}

let tally = Tally()
private var auditContext = 0
private var noteKey = 0

final class Account: NSObject {
    @objc dynamic var balance = 0
    @objc dynamic var owner = ""

    func deposit(_ amount: Int) {
        balance += amount
    }
}

/// First used inside the threads: its class is declared to the runtime there.
final class Ledger: NSObject {
    @objc dynamic var entries = 0
    @objc dynamic var label = "ledger"
    @objc dynamic var summary: String { "\(label): \(entries)" }

    @objc class var keyPathsForValuesAffectingSummary: Set<String> { ["entries", "label"] }
}

/// A to-one relationship (observed through, `\.account.balance`) and a
/// to-many one (changed through `mutableArrayValue(forKey:)`).
final class Customer: NSObject {
    @objc dynamic var account: Account
    @objc dynamic var payees: [String] = []

    init(account: Account) {
        self.account = account
        super.init()
    }
}

/// A to-many relationship that is a set (`mutableSetValue(forKey:)`).
final class Club: NSObject {
    @objc dynamic var members: Set<String> = []
}

/// The Objective-C API: an observer overriding observeValue, with a context.
final class Auditor: NSObject {
    let kind: String

    init(kind: String) {
        self.kind = kind
        super.init()
    }

    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        guard context == &auditContext else {
            super.observeValue(forKeyPath: keyPath, of: object, change: change, context: context)
            return
        }
        tally.add(kind)
        if let new = change?[.newKey] as? Int, let old = change?[.oldKey] as? Int {
            tally.add(kind + " delta", new - old)
        }
    }
}

let workers = 8
let rounds = 25

let bank = Account()
bank.owner = "bank"
let bankLock = NSLock()
let bankAuditor = Auditor(kind: "bank auditor")
bank.addObserver(bankAuditor, forKeyPath: "balance", options: [.new, .old], context: &auditContext)
let bankToken = bank.observe(\.balance, options: [.new, .old]) { account, change in
    tally.add("bank token")
    tally.add("bank token delta", change.newValue! - change.oldValue!)
}

// Phase 1: eight workers at once (Dispatch), each with objects of its own.
DispatchQueue.concurrentPerform(iterations: workers) { worker in
    let mine = Account()
    mine.owner = "worker \(worker)"
    let auditor = Auditor(kind: "auditor")
    mine.addObserver(auditor, forKeyPath: "balance", options: [.new, .old], context: &auditContext)
    let token = mine.observe(\.balance, options: [.new, .old]) { account, change in
        tally.add("token")
        tally.add("token delta", change.newValue! - change.oldValue!)
    }
    let ledger = Ledger()
    let summaryToken = ledger.observe(\.summary, options: [.new]) { ledger, change in
        tally.add("summary")
    }
    let customer = Customer(account: Account())
    let chainToken = customer.observe(\.account.balance, options: [.new, .old]) { customer, change in
        tally.add("key path")
    }
    let payeesToken = customer.observe(\.payees, options: [.new, .old]) { customer, change in
        tally.add("payees")
    }
    let payees = customer.mutableArrayValue(forKey: "payees")
    for round in 0..<rounds {
        mine.deposit(1)
        let current = mine.value(forKey: "balance") as? Int ?? -1
        mine.setValue(current + 1, forKey: "balance")
        if mine.balance != 2 * (round + 1) { tally.add("wrong balance") }
        ledger.entries += 1
        if round % 5 == 0 { ledger.setValue("ledger \(worker)", forKey: "label") }
        customer.account.balance += 1
        if round % 5 == 4 { customer.account = Account() }
        payees.add("payee \(round)")
        if round % 3 == 0 { payees.removeObject(at: 0) }
        if customer.value(forKeyPath: "account.balance") as? Int != (round % 5 == 4 ? 0 : round % 5 + 1) {
            tally.add("wrong key path")
        }
        if mine.description.isEmpty || customer.payees.count != round + 1 - (round / 3 + 1) {
            tally.add("wrong description or payees")
        }

        // The shared bank: observers come and go without a lock (on a key
        // nobody sets meanwhile), sets go under the program's lock.
        let visitor = bank.observe(\.owner, options: [.new]) { bank, change in
            tally.add("visitor")
        }
        let watcher = Auditor(kind: "visitor")
        bank.addObserver(watcher, forKeyPath: "owner", options: [.new], context: &auditContext)
        bankLock.lock()
        bank.balance += 1
        bankLock.unlock()
        if bank.value(forKey: "owner") as? String != "bank" { tally.add("wrong owner") }
        bank.removeObserver(watcher, forKeyPath: "owner", context: &auditContext)
        visitor.invalidate()

        // Objects made and dropped, one of them while still observed.
        let temporary = Account()
        let temporaryToken = temporary.observe(\.balance, options: [.new]) { account, change in
            tally.add("temporary")
        }
        temporary.balance = round
        if round % 2 == 0 { temporaryToken.invalidate() }
    }
    // A manual notification (old and new alike).
    mine.willChangeValue(forKey: "balance")
    mine.didChangeValue(forKey: "balance")
    mine.removeObserver(auditor, forKeyPath: "balance", context: &auditContext)
    token.invalidate()
    summaryToken.invalidate()
    chainToken.invalidate()
    payeesToken.invalidate()
    tally.add("final balances", mine.balance)
    print("worker finished")
}

// Phase 2: four Foundation threads, each printing from inside its handlers,
// with more of the runtime: .initial and .prior, KVC through a key path,
// descriptions, associated objects, a to-many set, Progress, UserDefaults.
let threads = 4
let countdown = Countdown(threads)
for index in 0..<threads {
    let thread = Thread {
        let account = Account()
        let token = account.observe(\.balance, options: [.initial, .prior, .new]) { account, change in
            if !change.isPrior { print("tick") }
            tally.add("thread token")
        }
        for step in 1...5 {
            account.setValue(index * 100 + step, forKey: "balance")
        }
        account.setValue("thread \(index)", forKeyPath: "owner")
        if "\(account) \(account.value(forKey: "owner") ?? "")".isEmpty { tally.add("wrong description") }
        objc_setAssociatedObject(account, &noteKey, "note \(index)", .OBJC_ASSOCIATION_RETAIN)
        if objc_getAssociatedObject(account, &noteKey) as? String != "note \(index)" {
            tally.add("wrong association")
        }
        token.invalidate()

        let club = Club()
        let membersToken = club.observe(\.members, options: [.new, .old]) { club, change in
            tally.add("members")
        }
        let members = club.mutableSetValue(forKey: "members")
        members.add("m\(index)")
        members.add("n\(index)")
        members.remove("m\(index)")
        if club.members != ["n\(index)"] { tally.add("wrong members") }
        membersToken.invalidate()

        let progress = Progress(totalUnitCount: 4)
        let progressToken = progress.observe(\.fractionCompleted, options: [.new]) { progress, change in
            tally.add("progress")
        }
        for _ in 0..<4 { progress.completedUnitCount += 1 }
        progressToken.invalidate()

        let defaults = UserDefaults.standard
        let defaultsWatcher = Auditor(kind: "defaults")
        defaults.addObserver(defaultsWatcher, forKeyPath: "thread\(index)", options: [.new], context: &auditContext)
        defaults.set(index + 1, forKey: "thread\(index)")
        if defaults.integer(forKey: "thread\(index)") != index + 1 { tally.add("wrong default") }
        defaults.removeObserver(defaultsWatcher, forKeyPath: "thread\(index)", context: &auditContext)
        countdown.done()
    }
    thread.start()
}
countdown.wait()

bank.removeObserver(bankAuditor, forKeyPath: "balance", context: &auditContext)
bankToken.invalidate()

// Phase 3: Foundation's operation classes (the runtime's Operation,
// BlockOperation and OperationQueue) from several threads at once, as real
// programs use them: six threads feed and wait for five queues while their
// operations change observed objects on the queues' own threads.

/// Counts notifications of a Bool key by key and new value
/// (`"a isExecuting true"`): an operation's state keys.
final class StateAuditor: NSObject {
    let kind: String

    init(kind: String) {
        self.kind = kind
        super.init()
    }

    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        guard context == &auditContext else {
            super.observeValue(forKeyPath: keyPath, of: object, change: change, context: context)
            return
        }
        let new = change?[.newKey] as? Bool
        tally.add("\(kind) \(keyPath ?? "nil") \(new.map { "\($0)" } ?? "nil")")
    }
}

/// The order operations ran in, behind the program's own lock.
final class RunLog {
    private let lock = NSLock()
    private var names: [String] = []

    func ran(_ name: String) {
        lock.lock()
        names.append(name)
        lock.unlock()
    }

    func position(_ name: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return names.firstIndex(of: name) ?? -1
    }
}

/// An asynchronous operation as Apple's subclassing notes have it: its own
/// state under its own lock, isExecuting and isFinished posted by hand, its
/// work finished on a Dispatch queue after start() returned.
final class Download: Operation {
    let item = Account()
    private let stateLock = NSLock()
    private var running = false
    private var done = false

    override var isAsynchronous: Bool { true }
    // One expression each: the runtime calls them a varying number of
    // times (whether the queue's check after start() finds the work done
    // depends on the threads), and a statement of theirs would be counted.
    override var isExecuting: Bool { stateLock.withLock { running } }
    override var isFinished: Bool { stateLock.withLock { done } }

    override func start() {
        if isCancelled {
            willChangeValue(forKey: "isFinished")
            stateLock.withLock { done = true }
            didChangeValue(forKey: "isFinished")
            return
        }
        willChangeValue(forKey: "isExecuting")
        stateLock.withLock { running = true }
        didChangeValue(forKey: "isExecuting")
        DispatchQueue.global().async {
            self.item.balance += 1
            self.item.setValue(self.item.balance + 1, forKey: "balance")
            if OperationQueue.current != nil { tally.add("wrong current queue") }
            tally.add("async ran")
            self.willChangeValue(forKey: "isExecuting")
            self.willChangeValue(forKey: "isFinished")
            self.stateLock.withLock {
                self.running = false
                self.done = true
            }
            self.didChangeValue(forKey: "isExecuting")
            self.didChangeValue(forKey: "isFinished")
        }
    }
}

let shared = Account()
shared.owner = "shared"
let sharedLock = NSLock()
let sharedAuditor = Auditor(kind: "shared auditor")
shared.addObserver(sharedAuditor, forKeyPath: "balance", options: [.new, .old], context: &auditContext)
let sharedToken = shared.observe(\.balance, options: [.new, .old]) { account, change in
    tally.add("shared token")
    tally.add("shared token delta", change.newValue! - change.oldValue!)
}
let phase3 = Countdown(6)
let log = RunLog()

// (a) Queue A: 40 block operations, at most 4 at once, added 20 by two
// threads at once, then a barrier block, then 20 more the same way. Each
// changes an object of its own and the shared account (under sharedLock).
let queueA = OperationQueue()
queueA.name = "A"
queueA.maxConcurrentOperationCount = 4
let queueACount = queueA.observe(\.operationCount, options: [.new]) { queue, change in
    tally.add("a count token")
}
let aAuditor = StateAuditor(kind: "a")
let aStarted = Countdown(1)
var aOperations: [BlockOperation] = []
var aTokens: [NSKeyValueObservation] = []
for index in 0..<40 {
    let operation = BlockOperation {
        if OperationQueue.current !== queueA { tally.add("wrong current queue") }
        let own = Account()
        let ownToken = own.observe(\.balance, options: [.new, .old]) { account, change in
            tally.add("own token")
            tally.add("own token delta", change.newValue! - change.oldValue!)
        }
        own.balance = index
        own.setValue(index + 1, forKey: "balance")
        if own.value(forKey: "balance") as? Int != index + 1 { tally.add("wrong own balance") }
        ownToken.invalidate()
        sharedLock.lock()
        shared.balance += 1
        let current = shared.value(forKey: "balance") as? Int ?? -1
        shared.setValue(current + 1, forKey: "balance")
        sharedLock.unlock()
        if tally.value("barrier") != (index < 20 ? 0 : 1) { tally.add("wrong barrier order") }
        tally.add("a ran")
    }
    operation.name = "a\(index)"
    aOperations.append(operation)
}
let aFeeder = Thread {
    for half in 0..<2 {
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            for index in (half * 20 + part * 10)..<(half * 20 + part * 10 + 10) {
                let operation = aOperations[index]
                operation.addObserver(aAuditor, forKeyPath: "isExecuting", options: [.new], context: &auditContext)
                let token = operation.observe(\.isFinished, options: [.new]) { operation, change in
                    tally.add("a finished token")
                    if change.newValue != true { tally.add("wrong finished value") }
                }
                sharedLock.lock()
                aTokens.append(token)
                sharedLock.unlock()
                queueA.addOperation(operation)
            }
        }
        if half == 0 {
            queueA.addBarrierBlock {
                if tally.value("a ran") != 20 { tally.add("wrong barrier order") }
                tally.add("barrier")
            }
            aStarted.done()
        }
    }
    queueA.waitUntilAllOperationsAreFinished()
    phase3.done()
}
// A second thread waits for each of them, the last added first (it may not
// be on the queue yet), then for the whole queue. Not for the queue alone:
// it may be empty for a moment while the feeder still adds (after the
// barrier, or while one of its two threads is ahead of the other).
let aWaiter = Thread {
    aStarted.wait()
    for operation in aOperations.reversed() { operation.waitUntilFinished() }
    queueA.waitUntilAllOperationsAreFinished()
    if queueA.operationCount != 0 || tally.value("a ran") != 40 { tally.add("wrong wait") }
    phase3.done()
}

// (b) Queue B: 8 asynchronous operations (one cancelled before it is
// added), at most 3 at once, added by one thread that waits for them.
let queueB = OperationQueue()
queueB.maxConcurrentOperationCount = 3
let bAuditor = StateAuditor(kind: "async")
let itemAuditor = Auditor(kind: "item")
let completions = Countdown(8)
var downloads: [Download] = []
var downloadTokens: [NSKeyValueObservation] = []
for index in 0..<8 {
    let download = Download()
    download.name = "download \(index)"
    download.item.addObserver(itemAuditor, forKeyPath: "balance", options: [.new, .old], context: &auditContext)
    download.addObserver(bAuditor, forKeyPath: "isExecuting", options: [.new], context: &auditContext)
    download.addObserver(bAuditor, forKeyPath: "isFinished", options: [.new], context: &auditContext)
    let token = download.observe(\.isFinished, options: [.new]) { download, change in
        tally.add("async finished token")
        if change.newValue != true || !download.isFinished { tally.add("wrong finished value") }
    }
    download.completionBlock = {
        tally.add("completion")
        completions.done()
    }
    if index == 5 { download.cancel() }
    downloads.append(download)
    downloadTokens.append(token)
}
let bFeeder = Thread {
    queueB.addOperations(downloads, waitUntilFinished: true)
    for download in downloads where !download.isFinished || download.isExecuting { tally.add("wrong async state") }
    phase3.done()
}

// (c) Queue C: a chain (c1 before c2 before c3 before c4) and a fan-in
// (f1…f4 before sink), their isReady and dependencies observed, added in
// the wrong order by a thread that waits for them.
let queueC = OperationQueue()
queueC.maxConcurrentOperationCount = 2
let dependencyAuditor = Auditor(kind: "dependencies")
var cOperations: [String: BlockOperation] = [:]
for name in ["c1", "c2", "c3", "c4", "f1", "f2", "f3", "f4", "sink"] {
    let operation = BlockOperation {
        let own = Ledger()
        own.setValue(name, forKey: "label")
        own.entries += 1
        log.ran(name)
    }
    operation.name = name
    cOperations[name] = operation
}
var readyTokens: [NSKeyValueObservation] = []
for name in ["c2", "c3", "c4", "sink"] {
    let operation = cOperations[name]!
    let token = operation.observe(\.isReady, options: [.old, .new]) { operation, change in
        tally.add(change.newValue == true ? "became ready" : "became waiting")
        if change.oldValue == change.newValue { tally.add("wrong ready change") }
    }
    readyTokens.append(token)
    operation.addObserver(dependencyAuditor, forKeyPath: "dependencies", options: [.new], context: &auditContext)
}
cOperations["c2"]!.addDependency(cOperations["c1"]!)
cOperations["c3"]!.addDependency(cOperations["c2"]!)
cOperations["c4"]!.addDependency(cOperations["c3"]!)
for name in ["f1", "f2", "f3", "f4"] { cOperations["sink"]!.addDependency(cOperations[name]!) }
let cFeeder = Thread {
    let order = ["sink", "f4", "f3", "f2", "f1", "c4", "c3", "c2", "c1"]
    queueC.addOperations(order.map { cOperations[$0]! }, waitUntilFinished: true)
    phase3.done()
}

// (d) Queue D: its operationCount observed; two threads feed it at once
// (ten operations one by one, and two batches of five), then both wait.
let queueD = OperationQueue()
queueD.maxConcurrentOperationCount = 2
let countAuditor = Auditor(kind: "d count")
queueD.addObserver(countAuditor, forKeyPath: "operationCount", options: [.new], context: &auditContext)
let dOneByOne = Thread {
    for _ in 0..<10 {
        queueD.addOperation { tally.add("d ran") }
    }
    queueD.waitUntilAllOperationsAreFinished()
    phase3.done()
}
let dBatches = Thread {
    for _ in 0..<2 {
        let batch = (0..<5).map { _ in BlockOperation { tally.add("d ran") } }
        queueD.addOperations(batch, waitUntilFinished: false)
    }
    queueD.waitUntilAllOperationsAreFinished()
    phase3.done()
}

for thread in [aFeeder, aWaiter, bFeeder, cFeeder, dOneByOne, dBatches] { thread.start() }

// (e) Queue E, meanwhile on the main thread: suspended with six operations
// (e6 waiting for e5), all cancelled, a seventh added, then resumed.
let queueE = OperationQueue()
let suspendedToken = queueE.observe(\.isSuspended, options: [.new]) { queue, change in
    tally.add("suspended token")
}
let eAuditor = StateAuditor(kind: "e")
var eOperations: [BlockOperation] = []
for index in 1...7 {
    let operation = BlockOperation { tally.add(index <= 6 ? "cancelled ran" : "e ran") }
    operation.addObserver(eAuditor, forKeyPath: "isCancelled", options: [.new], context: &auditContext)
    operation.addObserver(eAuditor, forKeyPath: "isFinished", options: [.new], context: &auditContext)
    eOperations.append(operation)
}
let e6Token = eOperations[5].observe(\.isReady, options: [.new]) { operation, change in
    tally.add(change.newValue == true ? "e6 became ready" : "e6 became waiting")
}
eOperations[5].addDependency(eOperations[4])
queueE.isSuspended = true
queueE.addOperations(Array(eOperations[0..<6]), waitUntilFinished: false)
queueE.cancelAllOperations()
queueE.addOperation(eOperations[6])
if queueE.operationCount != 7 || tally.value("cancelled ran") + tally.value("e ran") != 0 {
    tally.add("wrong suspension")
}
queueE.isSuspended = false
queueE.waitUntilAllOperationsAreFinished()

phase3.wait()
completions.wait()

for operation in aOperations {
    operation.removeObserver(aAuditor, forKeyPath: "isExecuting", context: &auditContext)
}
for token in aTokens { token.invalidate() }
queueACount.invalidate()
for download in downloads {
    download.item.removeObserver(itemAuditor, forKeyPath: "balance", context: &auditContext)
    download.removeObserver(bAuditor, forKeyPath: "isExecuting", context: &auditContext)
    download.removeObserver(bAuditor, forKeyPath: "isFinished", context: &auditContext)
}
for token in downloadTokens { token.invalidate() }
for name in ["c2", "c3", "c4", "sink"] {
    cOperations[name]!.removeObserver(dependencyAuditor, forKeyPath: "dependencies", context: &auditContext)
}
for token in readyTokens { token.invalidate() }
queueD.removeObserver(countAuditor, forKeyPath: "operationCount", context: &auditContext)
for operation in eOperations {
    operation.removeObserver(eAuditor, forKeyPath: "isCancelled", context: &auditContext)
    operation.removeObserver(eAuditor, forKeyPath: "isFinished", context: &auditContext)
}
e6Token.invalidate()
suspendedToken.invalidate()
shared.removeObserver(sharedAuditor, forKeyPath: "balance", context: &auditContext)
sharedToken.invalidate()

print("token notifications:", tally.value("token"), "delta", tally.value("token delta"))
print("auditor notifications:", tally.value("auditor"), "delta", tally.value("auditor delta"))
print("summary notifications:", tally.value("summary"))
print("key path notifications:", tally.value("key path"), "payees notifications:", tally.value("payees"))
print("bank token notifications:", tally.value("bank token"), "delta", tally.value("bank token delta"))
print("bank auditor notifications:", tally.value("bank auditor"), "delta", tally.value("bank auditor delta"))
print("visitor notifications:", tally.value("visitor"))
print("temporary notifications:", tally.value("temporary"))
print("thread token notifications:", tally.value("thread token"), "members:", tally.value("members"))
print("progress notifications:", tally.value("progress"), "defaults:", tally.value("defaults"))
print("wrong balances:", tally.value("wrong balance"), "wrong owners:", tally.value("wrong owner"))
print("wrong key paths:", tally.value("wrong key path"), "others:", tally.value("wrong description or payees"))
print(
    "wrong in threads:", tally.value("wrong description"), tally.value("wrong association"),
    tally.value("wrong members"), tally.value("wrong default"))
print("final balances:", tally.value("final balances"))
print("bank balance:", bank.balance, bank.value(forKey: "balance") as? Int ?? -1)

print("queue A ran:", tally.value("a ran"), "barrier:", tally.value("barrier"), "left:", queueA.operationCount)
print(
    "queue A isExecuting:", tally.value("a isExecuting true"), tally.value("a isExecuting false"),
    "isFinished tokens:", tally.value("a finished token"), "operationCount tokens:", tally.value("a count token"))
print("own token notifications:", tally.value("own token"), "delta", tally.value("own token delta"))
print("shared token notifications:", tally.value("shared token"), "delta", tally.value("shared token delta"))
print("shared auditor notifications:", tally.value("shared auditor"), "delta", tally.value("shared auditor delta"))
print("shared balance:", shared.balance, shared.value(forKey: "balance") as? Int ?? -1)
print("async ran:", tally.value("async ran"), "completion blocks:", tally.value("completion"))
print(
    "async isExecuting:", tally.value("async isExecuting true"), tally.value("async isExecuting false"),
    "isFinished:", tally.value("async isFinished true"), tally.value("async isFinished false"),
    "tokens:", tally.value("async finished token"))
print("async items:", tally.value("item"), "delta", tally.value("item delta"))
print(
    "isReady tokens: ready", tally.value("became ready"), "waiting", tally.value("became waiting"),
    "dependencies:", tally.value("dependencies"))
let chain = ["c1", "c2", "c3", "c4"].map { log.position($0) }
let fanIn = ["f1", "f2", "f3", "f4"].map { log.position($0) }
print(
    "chain in order:", chain.allSatisfy { $0 >= 0 } && chain == chain.sorted(),
    "sink after its four:", fanIn.allSatisfy { $0 >= 0 && $0 < log.position("sink") })
print(
    "queue D ran:", tally.value("d ran"), "operationCount notifications:", tally.value("d count"), "left:",
    queueD.operationCount)
print(
    "queue E ran:", tally.value("e ran"), "cancelled ran:", tally.value("cancelled ran"),
    "isCancelled:", tally.value("e isCancelled true"), "isFinished:", tally.value("e isFinished true"),
    "e6 isReady:", tally.value("e6 became waiting"), tally.value("e6 became ready"),
    "suspended tokens:", tally.value("suspended token"))
print(
    "wrong in operations:", tally.value("wrong current queue"), tally.value("wrong own balance"),
    tally.value("wrong barrier order"), tally.value("wrong finished value"), tally.value("wrong wait"),
    tally.value("wrong async state"), tally.value("wrong ready change"), tally.value("wrong suspension"))
