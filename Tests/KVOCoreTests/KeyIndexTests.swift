import Testing
@testable import KVOCore

/// Issue 41: past `ObservationInfo.keyIndexThreshold` observances an object
/// finds the observances of a changed key in its key index instead of
/// walking them all (the index is built at the first change that looks a
/// key up). Each story here runs three times: with no padding (a few
/// observances, no index), with a little (the index is built from the slots
/// partway through) and with a lot (built before the story's own
/// registrations, each then appended to it). The padding is observances of
/// keys nobody changes, registered between the story's own, so that the
/// key's entries are spread among other keys', each batch followed by a
/// change of a key nobody observes (which builds the index once past the
/// threshold). All three must tell the same notifications in the same order.
@Suite struct KeyIndexTests {
    /// Paddings per `pad` call: none; crossing the threshold partway (every
    /// story pads each of its objects at least three times); past it at once.
    static let paddings = [0, 6, ObservationInfo.keyIndexThreshold + 4]

    /// Observes keys nobody changes on objects, `count` at a time.
    final class Padder {
        let w: World
        let count: Int
        let observer: KVOObject
        private var next = 0

        init(_ w: World, _ count: Int) throws {
            self.w = w
            self.count = count
            observer = try w.object(w.observerClass("Padder"), "padder")
        }

        func pad(_ objects: KVOObject...) throws {
            for object in objects {
                for _ in 0..<count {
                    try w.observe(object, observer, "pad\(next)")
                    next += 1
                }
                try w.will(object, "nobody")
                try w.did(object, "nobody")
            }
        }
    }

    /// `story`'s notifications for each padding, checked to agree, and
    /// whether the objects `indexed` names were indexed at the end.
    func runs(
        _ story: (World, Padder) throws -> [KVOObject], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        var results: [[String]] = []
        for padding in Self.paddings {
            let w = World()
            let padder = try Padder(w, padding)
            let watched = try story(w, padder)
            results.append(w.take())
            for object in watched {
                let indexed = object.observationInfo?.isKeyIndexed ?? false
                #expect(indexed == (padding > 0), "padding \(padding): \(object.name)", sourceLocation: sourceLocation)
            }
        }
        for (padding, result) in zip(Self.paddings, results).dropFirst() {
            #expect(result == results[0], "padding \(padding) disagrees", sourceLocation: sourceLocation)
        }
        return results[0]
    }

    /// The dump's lines without the padding, as `observanceSnapshots` lists them.
    func dump(_ object: KVOObject) -> [String] {
        object.observanceSnapshots.filter { $0.observer != "padder" }.map { "\($0.observer) \($0.keyPath)" }
    }

    @Test func priorsGoInRegistrationOrderAndTheRestNewestFirst() throws {
        let lines = try runs { w, padder in
            let counter = try w.object(
                w.makeClass("Counter", [w.stored("value", .int), w.stored("other", .int)]), "counter")
            let watcher = w.observerClass()
            try padder.pad(counter)
            for name in ["first", "second", "third", "fourth"] {
                let observer = try w.object(watcher, name)
                let options: ObservingOptions = name == "third" ? [.new] : [.new, .old, .prior]
                try w.observe(counter, observer, name == "second" ? "other" : "value", options)
                try padder.pad(counter)
            }
            try w.set(counter, "value", .int(1))
            try w.set(counter, "other", .int(2))
            return [counter]
        }
        #expect(
            lines == [
                "counter.value → first {kind = 1; notificationIsPrior = 1; old = 0}",
                "counter.value → fourth {kind = 1; notificationIsPrior = 1; old = 0}",
                "counter.value → fourth {kind = 1; new = 1; old = 0}",
                "counter.value → third {kind = 1; new = 1}",
                "counter.value → first {kind = 1; new = 1; old = 0}",
                "counter.other → second {kind = 1; notificationIsPrior = 1; old = 0}",
                "counter.other → second {kind = 1; new = 2; old = 0}",
            ])
    }

    /// Observers that all read the changed key directly: a change keeps the
    /// key's list (`directSet(of:)`), not a record for each.
    @Test func directObserversOfTheKeyAreToldNewestFirstAndOthersNot() throws {
        let lines = try runs { w, padder in
            let (acct, alice) = try w.acctAndAlice()
            let bob = try w.object(alice.cls, "bob")
            let carol = try w.object(alice.cls, "carol")
            try padder.pad(acct)
            try w.observe(acct, alice, "balance", [.new, .old])
            try padder.pad(acct)
            try w.observe(acct, bob, "interestRate", [.new])
            try w.observe(acct, carol, "balance", [.new])
            try padder.pad(acct)
            try w.observe(acct, bob, "balance", [.old])
            try w.set(acct, "balance", .double(1))
            try w.set(acct, "interestRate", .double(2))
            try w.setValue(.int(3), acct, forKey: "balance")
            return [acct]
        }
        #expect(
            lines == [
                "acct.balance → bob {kind = 1; old = 100}",
                "acct.balance → carol {kind = 1; new = 1}",
                "acct.balance → alice {kind = 1; new = 1; old = 100}",
                "acct.interestRate → bob {kind = 1; new = 2}",
                "acct.balance → bob {kind = 1; old = 1}",
                "acct.balance → carol {kind = 1; new = 3}",
                "acct.balance → alice {kind = 1; new = 3; old = 1}",
            ])
    }

    /// A handler removes two observers of the same key registered before it,
    /// not told yet: one is not told, the other still is, because an
    /// identical registration of it remains (Apple's shared observance),
    /// and it then removes that one; an observer removed between will and
    /// did is not told either.
    @Test func removalDuringDeliveryIsSeenAsWithoutTheIndex() throws {
        let lines = try runs { w, padder in
            let (acct, alice) = try w.acctAndAlice()
            let remover = w.observerClass("Remover")
            let bob = try w.object(alice.cls, "bob")
            let carol = try w.object(remover, "carol")
            let dave = try w.object(remover, "dave")
            remover.ownHooks.observeValue = { observer, keyPath, object, _, _ in
                w.print("\(observer.name) removes")
                if observer === dave {
                    // The second time they are gone: removing them raises.
                    try? w.unobserve(object, alice, keyPath)
                    try? w.unobserve(object, carol, keyPath)
                } else {
                    try w.unobserve(object, observer, keyPath)
                }
            }
            try padder.pad(acct)
            try w.observe(acct, alice, "balance", [.new])
            try w.observe(acct, carol, "balance", [.new])
            try padder.pad(acct)
            try w.observe(acct, bob, "balance", [.new])
            try w.observe(acct, carol, "balance", [.new])
            try padder.pad(acct)
            try w.observe(acct, dave, "balance", [.new])
            try w.set(acct, "balance", .double(1))
            w.print("second")
            try w.will(acct, "balance")
            try w.unobserve(acct, bob, "balance")
            try w.setIvar(acct, "balance", .double(2))
            try w.did(acct, "balance")
            return [acct]
        }
        #expect(
            lines == [
                "acct.balance → dave {kind = 1; new = 1}",
                "  print: dave removes",
                "acct.balance → carol {kind = 1; new = 1}",
                "  print: carol removes",
                "acct.balance → bob {kind = 1; new = 1}",
                "print: second",
                "acct.balance → dave {kind = 1; new = 2}",
                "  print: dave removes",
            ])
    }

    /// `fullName` is affected by `firstName` and `lastName`: its observances
    /// are listed under all three keys, and told in the order of every
    /// observance of the changed key.
    @Test func aDependentKeysObserversAreToldInRegistrationOrderAmongTheKeys() throws {
        let lines = try runs { w, padder in
            let person = try w.object(
                w.makeClass(
                    "Person",
                    [
                        w.stored("firstName", .string, .string("John")),
                        w.stored("lastName", .string, .string("Appleseed")),
                        w.computed("fullName", .string, affectedBy: ["firstName", "lastName"]) { o in
                            guard case .string(let first) = World.ivar(o, "firstName"),
                                case .string(let last) = World.ivar(o, "lastName")
                            else { return .null }
                            return .string(first + " " + last)
                        },
                    ]), "person")
            let label = w.observerClass("Label")
            let first = try w.object(label, "first")
            let full = try w.object(label, "full")
            let last = try w.object(label, "last")
            try padder.pad(person)
            try w.observe(person, first, "firstName", [.new])
            try padder.pad(person)
            try w.observe(person, full, "fullName", [.new, .old, .prior])
            try padder.pad(person)
            try w.observe(person, last, "lastName", [.new])
            try w.observe(person, first, "firstName", [.old])
            try w.set(person, "firstName", .string("Jane"))
            try w.set(person, "lastName", .string("Doe"))
            try w.unobserve(person, full, "fullName")
            try w.set(person, "firstName", .string("Joan"))
            return [person]
        }
        #expect(
            lines == [
                "person.fullName → full {kind = 1; notificationIsPrior = 1; old = \"John Appleseed\"}",
                "person.firstName → first {kind = 1; old = John}",
                "person.fullName → full {kind = 1; new = \"Jane Appleseed\"; old = \"John Appleseed\"}",
                "person.firstName → first {kind = 1; new = Jane}",
                "person.fullName → full {kind = 1; notificationIsPrior = 1; old = \"Jane Appleseed\"}",
                "person.lastName → last {kind = 1; new = Doe}",
                "person.fullName → full {kind = 1; new = \"Jane Doe\"; old = \"Jane Appleseed\"}",
                "person.firstName → first {kind = 1; old = Jane}",
                "person.firstName → first {kind = 1; new = Joan}",
            ])
    }

    /// `person.account.balance`: the forwarding observances sit on the
    /// accounts among their own observers, and move when the account is
    /// replaced (to the end of the new account's list, newest root first);
    /// swapping back registers the same forwarding observances again, which
    /// must not be found at their old places. The dumps list them in
    /// registration order too.
    @Test func forwardingObservancesOnIntermediateObjectsKeepTheirPlaces() throws {
        var dumps: [[String]] = []
        let lines = try runs { w, padder in
            let account = w.accountClass()
            let person = w.makeClass("Person", [w.stored("account", .object("Account"))])
            let checking = try w.object(account, "checking", [("balance", .double(100))])
            let savings = try w.object(account, "savings", [("balance", .double(500))])
            let p = try w.object(person, "person", [("account", .object(checking))])
            let watcher = w.observerClass()
            let w1 = try w.object(watcher, "w1")
            let w2 = try w.object(watcher, "w2")
            let teller = try w.object(watcher, "teller")
            try padder.pad(checking, savings)
            try w.observe(checking, teller, "balance", [.new])
            try w.observe(savings, teller, "balance", [.new])
            try padder.pad(checking, savings)
            try w.observe(p, w1, "account.balance", [.new])
            try padder.pad(checking, savings)
            try w.observe(p, w2, "account.balance", [.new])
            try w.observe(checking, teller, "balance", [.old])
            try w.set(checking, "balance", .double(1))
            try w.set(p, "account", .object(savings))
            try w.set(savings, "balance", .double(2))
            try w.set(checking, "balance", .double(3))
            try w.set(p, "account", .object(checking))
            try w.set(checking, "balance", .double(4))
            try w.unobserve(p, w1, "account.balance")
            try w.set(checking, "balance", .double(5))
            dumps.append(dump(checking))
            dumps.append(dump(savings))
            return [checking, savings]
        }
        #expect(
            lines == [
                "checking.balance → teller {kind = 1; old = 100}",
                "person.account.balance → w2 {kind = 1; new = 1}",
                "person.account.balance → w1 {kind = 1; new = 1}",
                "checking.balance → teller {kind = 1; new = 1}",
                "person.account.balance → w2 {kind = 1; new = 500}",
                "person.account.balance → w1 {kind = 1; new = 500}",
                "person.account.balance → w1 {kind = 1; new = 2}",
                "person.account.balance → w2 {kind = 1; new = 2}",
                "savings.balance → teller {kind = 1; new = 2}",
                "checking.balance → teller {kind = 1; old = 1}",
                "checking.balance → teller {kind = 1; new = 3}",
                "person.account.balance → w2 {kind = 1; new = 3}",
                "person.account.balance → w1 {kind = 1; new = 3}",
                "person.account.balance → w1 {kind = 1; new = 4}",
                "person.account.balance → w2 {kind = 1; new = 4}",
                "checking.balance → teller {kind = 1; old = 3}",
                "checking.balance → teller {kind = 1; new = 4}",
                "person.account.balance → w2 {kind = 1; new = 5}",
                "checking.balance → teller {kind = 1; old = 4}",
                "checking.balance → teller {kind = 1; new = 5}",
            ])
        let expectedDumps = [
            ["teller balance", "teller balance", "person[0] balance"],
            ["teller balance"],
        ]
        for (index, padding) in Self.paddings.enumerated() {
            #expect(Array(dumps[(2 * index)..<(2 * index + 2)]) == expectedDumps, "padding \(padding)")
        }
    }

    /// A key affected by more keys than a dependency closure stores
    /// (`Observance.largeClosure`): its observances are in no key's list,
    /// and every key's candidates are merged with them in registration order.
    @Test func observancesOfAKeyWithALargeClosureAreMergedInOrder() throws {
        let affecting = (0...ClassInfo.storedClosureLimit).map { "k\($0)" }
        let lines = try runs { w, padder in
            let cls = w.makeClass(
                "Wide",
                affecting.map { w.stored($0, .int) } + [
                    w.computed("total", .int, affectedBy: affecting) { o in
                        var sum = 0
                        for key in affecting { if case .int(let value) = World.ivar(o, key) { sum += value } }
                        return .int(sum)
                    }
                ])
            let wide = try w.object(cls, "wide")
            let watcher = w.observerClass()
            let early = try w.object(watcher, "early")
            let sum = try w.object(watcher, "sum")
            let late = try w.object(watcher, "late")
            try padder.pad(wide)
            try w.observe(wide, early, "k3", [.new])
            try padder.pad(wide)
            try w.observe(wide, sum, "total", [.new, .prior])
            #expect(wide.observationInfo?.observances.last?.largeClosure == true)
            try padder.pad(wide)
            try w.observe(wide, late, "k3", [.new])
            try w.observe(wide, late, "k4", [.new])
            try w.set(wide, "k3", .int(3))
            try w.set(wide, "k4", .int(4))
            try w.unobserve(wide, sum, "total")
            try w.set(wide, "k3", .int(5))
            return [wide]
        }
        #expect(
            lines == [
                "wide.total → sum {kind = 1; notificationIsPrior = 1}",
                "wide.k3 → late {kind = 1; new = 3}",
                "wide.total → sum {kind = 1; new = 3}",
                "wide.k3 → early {kind = 1; new = 3}",
                "wide.total → sum {kind = 1; notificationIsPrior = 1}",
                "wide.k4 → late {kind = 1; new = 4}",
                "wide.total → sum {kind = 1; new = 7}",
                "wide.k3 → late {kind = 1; new = 5}",
                "wide.k3 → early {kind = 1; new = 5}",
            ])
    }

    /// Whether an object observes exactly a key (the Swift route's warning
    /// about a plain assignment asks at every store): roots and forwarding
    /// observances count, removed ones and longer paths do not.
    @Test func hasObservanceOfKeyPathAnswersAsAWalkWould() throws {
        for padding in Self.paddings {
            let w = World()
            let padder = try Padder(w, padding)
            let account = w.accountClass()
            let person = w.makeClass("Person", [w.stored("account", .object("Account"))])
            let acct = try w.object(account, "acct")
            let p = try w.object(person, "person", [("account", .object(acct))])
            let watcher = try w.object(w.observerClass(), "watcher")
            try padder.pad(acct, p)
            try w.observe(p, watcher, "account.balance")
            try w.observe(acct, watcher, "interestRate")
            try padder.pad(acct, p)
            let infoOfAcct = try #require(acct.observationInfo)
            let infoOfPerson = try #require(p.observationInfo)
            func walked(_ info: ObservationInfo, _ key: String) -> Bool {
                info.observances.contains { $0.isKeyPath(key) }
            }
            for (info, key) in [
                (infoOfAcct, "balance"), (infoOfAcct, "interestRate"), (infoOfPerson, "account"),
                (infoOfPerson, "balance"), (infoOfAcct, "pad0"),
            ] {
                #expect(info.hasObservance(ofKeyPath: key) == walked(info, key), "padding \(padding): \(key)")
            }
            #expect(infoOfAcct.hasObservance(ofKeyPath: "balance"))
            #expect(!infoOfPerson.hasObservance(ofKeyPath: "account"))
            try w.unobserve(acct, watcher, "interestRate")
            #expect(acct.observationInfo?.hasObservance(ofKeyPath: "interestRate") != true)
        }
    }

    /// Registrations, removals (with the lists' holes and their compaction)
    /// and forwarding observances moving between two objects, in a
    /// pseudo-random order: for every key, the index gives exactly the
    /// observances a walk of the slots finds, in the same order.
    @Test func theIndexListsWhatAWalkFindsThroughChurn() throws {
        let w = World()
        let keys = (0..<6).map { "key\($0)" }
        let cls = w.makeClass(
            "Thing",
            keys.map { w.stored($0, .int) } + [
                w.stored("next", .object("Thing")),
                w.computed("both", .int, affectedBy: ["key0", "key1"]) { _ in .int(0) },
            ])
        let first = try w.object(cls, "first")
        let second = try w.object(cls, "second")
        let p = try w.object(cls, "p", [("next", .object(first))])
        let watchers = try (0..<5).map { try w.object(w.observerClass(), "w\($0)") }
        var registered: [(KVOObject, KVOObject, String)] = []
        var seed: UInt64 = 41
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        func check(_ object: KVOObject, _ step: Int) {
            guard let info = object.observationInfo else { return }
            for key in keys + ["both", "next"] {
                let indexed = info.observances(triggeredBy: key).compactMap { $0 }.filter { $0.isTriggered(by: key) }
                let walked = info.observances.filter { $0.isTriggered(by: key) }
                #expect(
                    indexed.map(ObjectIdentifier.init) == walked.map(ObjectIdentifier.init),
                    "step \(step): \(object.name).\(key)")
            }
        }
        for step in 0..<1_500 {
            switch next(10) {
            case 0...4:
                let target = [first, second, p][next(3)]
                let keyPath = next(4) == 0 ? "next.\(keys[next(keys.count)])" : (keys + ["both"])[next(keys.count + 1)]
                let watcher = watchers[next(watchers.count)]
                try w.observe(target, watcher, keyPath, [.new])
                registered.append((target, watcher, keyPath))
            case 5...7 where !registered.isEmpty:
                let (target, watcher, keyPath) = registered.remove(at: next(registered.count))
                try w.unobserve(target, watcher, keyPath)
            case 8:
                try w.set(p, "next", .object(next(2) == 0 ? first : second))
            default:
                let target = [first, second, p][next(3)]
                try w.set(target, keys[next(keys.count)], .int(step))
            }
            // The checked lane also audits the lists themselves (`KeyIndex._checkInvariants`).
            w.rt._checkInvariants()
            if step % 5 == 0 { for object in [first, second, p] { check(object, step) } }
        }
        #expect(first.observationInfo?.isKeyIndexed == true)
    }

    /// Most objects have a few observances: they get no index. Nor does an
    /// object that is observed by many but not changed.
    @Test func fewObservancesOrNoChangeBuildNoIndex() throws {
        let w = World()
        let (acct, alice) = try w.acctAndAlice()
        for _ in 1..<ObservationInfo.keyIndexThreshold { try w.observe(acct, alice, "balance") }
        try w.set(acct, "balance", .double(1))
        #expect(acct.observationInfo?.isKeyIndexed == false)
        try w.observe(acct, alice, "interestRate")
        #expect(acct.observationInfo?.isKeyIndexed == false)
        try w.set(acct, "interestRate", .double(1))
        #expect(acct.observationInfo?.isKeyIndexed == true)
        #expect(w.take().count == ObservationInfo.keyIndexThreshold)
    }
}
