// Allocation benchmarks of the KVO engine (KVOCore), driven directly: no
// parsing, no interpreter, no output format. What is gated is the number of
// malloc calls per measured sample (`mallocCountTotal`, checked against
// ../Thresholds/ by `make bench-core`); bytes allocated and wall clock are
// shown for information only (the machine is shared).
//
// `.instructions` is deliberately not among the metrics: where perf events are
// unavailable (this VM) it reports nothing and its failed set-up costs 16
// mallocs per sample, which would be counted as the engine's. Ask for it with
// `--metric instructions` on a machine that counts instructions, but never
// together with the allocation gate.
//
// Every benchmark builds its objects and registrations once, in `setup`, and
// checks there that the engine delivers what it should; each measured sample
// then repeats the work `benchmark.scaledIterations` times (1,000: scaling
// factor .kilo), after one unmeasured warm-up sample. Reported numbers are per
// iteration; the thresholds files hold the raw p90 per sample of 1,000.

import Benchmark
import KVOCore

/// Receives every notification and drops it, counting only (so setup can check
/// how many were delivered). Nothing is rendered or kept.
final class DiscardingSink: EventSink {
    private(set) var count = 0
    func emit(_ event: Event) { count &+= 1 }
}

// A fixture that is wrong, or an engine call that throws, crashes the benchmark
// process on purpose. ordo-one/benchmark reports an error thrown by a setup or
// a benchmark closure, but `thresholds check` then passes without that
// benchmark's numbers; a crash fails the whole run.

func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("KVOCoreBenchmarks: \(message())") }
}

@inline(__always)
func must<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) -> T {
    do {
        return try body()
    } catch {
        fatalError("KVOCoreBenchmarks: \(what()) threw \(error)")
    }
}

/// The work one benchmark repeats: each iteration of the loop is one set (or
/// one add-and-remove, one swap-and-set).
let iterationsPerSample = 1_000

// MARK: Fixtures

/// `class Counter { var value: Int = 0 }` observed by `observers` watchers on
/// `value` with [.new, .old], as B1 (one observer) and B2 (many) do.
final class SetFixture {
    let sink = DiscardingSink()
    let runtime: KVORuntime
    let object: KVOObject
    let value: PropertyInfo

    init(observers: Int, reportsNotifications: Bool = true) throws {
        runtime = KVORuntime(sink: sink)
        runtime.reportsNotifications = reportsNotifications
        let counter = ClassInfo(name: "Counter", superclass: nil)
        value = counter.addProperty(PropertyInfo(name: "value", type: .int, storage: .stored(slot: 0)))
        let watcher = ClassInfo(name: "Watcher", superclass: nil)
        object = runtime.makeObject(counter, name: "counter")
        for index in 0..<observers {
            let observer = runtime.makeObject(watcher, name: "watcher\(index)")
            try runtime.addObserver(observer, to: .object(object), keyPath: "value",
                                    options: [.new, .old], context: nil)
        }
        // One set delivers one notification per observer (counted, not sent,
        // when reportsNotifications is false).
        try runtime.set(object, value, .int(-1))
        expect(runtime.notificationCount == observers,
               "one set with \(observers) observers notified \(runtime.notificationCount) times")
        expect(sink.count == (reportsNotifications ? observers : 0),
               "the sink received \(sink.count) events for \(observers) observers")
        let stored = try runtime.get(object, value)
        expect(stored.intValue == -1, "the set stored \(stored), not -1")
    }
}

/// B7 in small: one object with `keys` stored Int properties, each observed
/// by one watcher with [.new, .old]; each iteration sets the next key, so a
/// change finds its key's one observance among the others' (the key index).
final class ManyKeysFixture {
    let sink = DiscardingSink()
    let runtime: KVORuntime
    let object: KVOObject
    let properties: [PropertyInfo]

    init(keys: Int) throws {
        runtime = KVORuntime(sink: sink)
        let bag = ClassInfo(name: "Bag", superclass: nil)
        properties = (0..<keys).map {
            bag.addProperty(PropertyInfo(name: "k\($0)", type: .int, storage: .stored(slot: 0)))
        }
        let watcher = runtime.makeObject(ClassInfo(name: "Watcher", superclass: nil), name: "watcher")
        object = runtime.makeObject(bag, name: "bag")
        for property in properties {
            try runtime.addObserver(watcher, to: .object(object), keyPath: property.name,
                                    options: [.new, .old], context: nil)
        }
        // Every key once: one notification each.
        for (index, property) in properties.enumerated() { try runtime.set(object, property, .int(index)) }
        expect(runtime.notificationCount == keys, "\(keys) sets of \(keys) keys notified \(runtime.notificationCount) times")
        expect(sink.count == keys, "the sink received \(sink.count) events for \(keys) sets")
        let last = try runtime.get(object, properties[keys - 1])
        expect(last.intValue == keys - 1, "the last key holds \(last), not \(keys - 1)")
    }

    /// Sets key `index % keys`.
    @inline(__always)
    func iterate(_ index: Int) throws {
        try runtime.set(object, properties[index % properties.count], .int(index))
    }
}

/// One `Counter` and `iterationsPerSample` watchers, none registered between samples.
final class RegistrationFixture {
    let sink = DiscardingSink()
    let runtime: KVORuntime
    let target: Value
    let observers: [KVOObject]

    init() throws {
        let runtime = KVORuntime(sink: sink)
        self.runtime = runtime
        let counter = ClassInfo(name: "Counter", superclass: nil)
        counter.addProperty(PropertyInfo(name: "value", type: .int, storage: .stored(slot: 0)))
        let watcher = ClassInfo(name: "Watcher", superclass: nil)
        let object = runtime.makeObject(counter, name: "counter")
        target = .object(object)
        observers = (0..<iterationsPerSample).map { runtime.makeObject(watcher, name: "watcher\($0)") }
        for index in observers.indices { try add(index) }
        expect(object.observationInfo?.observances.count == observers.count,
                   "\(object.observationInfo?.observances.count ?? 0) observers registered, not \(observers.count)")
        for index in observers.indices { try remove(index) }
        expect(object.observationInfo == nil, "observers left registered after removing all")
    }

    @inline(__always)
    func add(_ index: Int) throws {
        try runtime.addObserver(observers[index], to: target, keyPath: "value", options: [.new, .old], context: nil)
    }

    @inline(__always)
    func remove(_ index: Int) throws {
        try runtime.removeObserver(observers[index], from: target, keyPath: "value", context: .any)
    }
}

/// B4: a Person observed on "account.balance"; each iteration points
/// `person.account` at the other of two accounts and sets that account's balance.
final class KeyPathFixture {
    let sink = DiscardingSink()
    let runtime: KVORuntime
    let person: KVOObject
    let accounts: (KVOObject, KVOObject)
    let account: PropertyInfo
    let balance: PropertyInfo

    init() throws {
        runtime = KVORuntime(sink: sink)
        let accountClass = ClassInfo(name: "Account", superclass: nil)
        balance = accountClass.addProperty(PropertyInfo(name: "balance", type: .double, storage: .stored(slot: 0)))
        let personClass = ClassInfo(name: "Person", superclass: nil)
        account = personClass.addProperty(PropertyInfo(name: "account", type: .object("Account"),
                                                       storage: .stored(slot: 0)))
        let auditorClass = ClassInfo(name: "Auditor", superclass: nil)
        let checking = runtime.makeObject(accountClass, name: "checking")
        let savings = runtime.makeObject(accountClass, name: "savings")
        accounts = (checking, savings)
        person = runtime.makeObject(personClass, name: "person")
        try runtime.setIvar(person, account, .object(checking))
        let auditor = runtime.makeObject(auditorClass, name: "auditor")
        try runtime.addObserver(auditor, to: .object(person), keyPath: "account.balance",
                                options: [.new, .old], context: nil)

        // Two iterations: two notifications each, and the forwarding
        // observance always on the current account only.
        try iterate(0)
        try iterate(1)
        expect(runtime.notificationCount == 4, "two swaps and sets notified \(runtime.notificationCount) times")
        expect(sink.count == 4, "the sink received \(sink.count) events for 4 notifications")
        expect(checking.observationInfo?.observances.count == 1 && savings.observationInfo == nil,
                   "the forwarding observance did not follow person.account")
    }

    /// Points `person.account` at the other account, then sets its balance.
    @inline(__always)
    func iterate(_ index: Int) throws {
        let next = index & 1 == 0 ? accounts.1 : accounts.0
        try runtime.set(person, account, .object(next))
        try runtime.set(next, balance, .double(Double(index)))
    }
}

/// B5s's shape in small: `color`, a String computed from a stored Double `l`
/// (`@affectedBy(l)`), observed with [.new, .old]; each iteration sets `l`,
/// so the engine builds the old and the new string.
final class DependentStringFixture {
    let sink = DiscardingSink()
    let runtime: KVORuntime
    let object: KVOObject
    let l: PropertyInfo

    init() throws {
        runtime = KVORuntime(sink: sink)
        let colorClass = ClassInfo(name: "LabColor", superclass: nil)
        l = colorClass.addProperty(PropertyInfo(name: "l", type: .double, storage: .stored(slot: 0)))
        let color = colorClass.addProperty(PropertyInfo(name: "color", type: .string, storage: .computed,
                                                        affectedBy: ["l"]))
        color.getter = { object in
            guard case .double(let l) = object[slot: 0] else { return .null }
            // One allocation for the result: what the getter itself costs.
            let red = Value.describe(double: (l + 16) * 0.75 / 100)
            var text = "rgb("
            text.reserveCapacity(32)
            text += red
            text += ", "
            text += red
            text += ", "
            text += red
            text += ")"
            return .string(text)
        }
        let watcher = ClassInfo(name: "Watcher", superclass: nil)
        object = runtime.makeObject(colorClass, name: "labColor")
        try runtime.addObserver(runtime.makeObject(watcher, name: "watcher"), to: .object(object), keyPath: "color",
                                options: [.new, .old], context: nil)
        try iterate(50)
        expect(runtime.notificationCount == 1, "one set of l notified \(runtime.notificationCount) times")
        let shown = try runtime.get(object, color)
        guard case .string(let text) = shown, text == "rgb(0.495, 0.495, 0.495)" else {
            fatalError("KVOCoreBenchmarks: color is \(shown), not rgb(0.495, 0.495, 0.495)")
        }
    }

    /// `labColor.l = index % 101`, as B5s sets it.
    @inline(__always)
    func iterate(_ index: Int) throws {
        try runtime.set(object, l, .double(Double(index % 101)))
    }
}

extension Value {
    var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }
}

// MARK: Benchmarks

let benchmarks: @Sendable () -> Void = {
    // Exact gate: a run must allocate exactly what Thresholds/ records. More
    // is a regression; fewer fails too (the tool's "BETTER than the defined
    // thresholds"), so the files are re-recorded and a later regression back
    // to the old count is caught.
    let exactAllocations = BenchmarkThresholds(relative: BenchmarkThresholds.Relative.strict,
                                               absolute: BenchmarkThresholds.Absolute.strict)
    Benchmark.defaultConfiguration = .init(
        metrics: [.mallocCountTotal, .mallocBytesCount, .wallClock],
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 50,
        thresholds: [.mallocCountTotal: exactAllocations]
    )

    // The floor: the loop alone. Anything but 0 here is the harness's own
    // allocations, which every other benchmark would then count too.
    Benchmark("baseline-empty-loop") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(index)
        }
    }

    // (1)–(3): `counter.value = i` with 0, 1 and 10 observers ([.new, .old]).
    for observers in [0, 1, 10] {
        let name = "set-Int-\(observers)-observer" + (observers == 1 ? "" : "s")
        Benchmark(name) { benchmark, fixture in
            for index in benchmark.scaledIterations {
                must("set") { try fixture.runtime.set(fixture.object, fixture.value, .int(index)) }
            }
            blackHole(fixture.object[slot: fixture.value.slot ?? 0])
            blackHole(fixture.runtime.notificationCount)
        } setup: {
            must("SetFixture") { try SetFixture(observers: observers) }
        }
    }

    // (2) with `--quiet`'s shortcut: notifications are counted, not built.
    Benchmark("set-Int-1-observer-quiet") { benchmark, fixture in
        for index in benchmark.scaledIterations {
            must("set") { try fixture.runtime.set(fixture.object, fixture.value, .int(index)) }
        }
        blackHole(fixture.object[slot: fixture.value.slot ?? 0])
        blackHole(fixture.runtime.notificationCount)
    } setup: {
        must("SetFixture") { try SetFixture(observers: 1, reportsNotifications: false) }
    }

    // (4): add 1,000 observers on one key of one object, then remove them all
    // in the same order (B3 at N = 1,000); one iteration is one add and one remove.
    Benchmark("add-remove-1000-observers") { benchmark, fixture in
        expect(benchmark.scaledIterations.count == fixture.observers.count, "not one observer per iteration")
        for index in benchmark.scaledIterations {
            must("addObserver") { try fixture.add(index) }
        }
        for index in benchmark.scaledIterations {
            must("removeObserver") { try fixture.remove(index) }
        }
        blackHole(fixture.target)
    } setup: {
        must("RegistrationFixture") { try RegistrationFixture() }
    }

    // (6): a dependent String key built from a Double on every set (B5s in small).
    Benchmark("set-dependent-string-key") { benchmark, fixture in
        for index in benchmark.scaledIterations {
            must("set") { try fixture.iterate(index) }
        }
        blackHole(fixture.runtime.notificationCount)
    } setup: {
        must("DependentStringFixture") { try DependentStringFixture() }
    }

    // (7): one object observed for 1,000 keys (B7 in small); each iteration
    // sets one of them, every key once per sample.
    Benchmark("set-one-of-1000-observed-keys") { benchmark, fixture in
        for index in benchmark.scaledIterations {
            must("set") { try fixture.iterate(index) }
        }
        blackHole(fixture.runtime.notificationCount)
    } setup: {
        must("ManyKeysFixture") { try ManyKeysFixture(keys: 1_000) }
    }

    // (5): observer on "account.balance"; each iteration swaps person.account
    // between two accounts and sets the new account's balance.
    Benchmark("keypath-swap-account-and-set-balance") { benchmark, fixture in
        for index in benchmark.scaledIterations {
            must("swap and set") { try fixture.iterate(index) }
        }
        blackHole(fixture.runtime.notificationCount)
    } setup: {
        must("KeyPathFixture") { try KeyPathFixture() }
    }
}
