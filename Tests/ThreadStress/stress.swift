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
