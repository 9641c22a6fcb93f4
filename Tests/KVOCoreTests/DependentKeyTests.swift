import Testing
@testable import KVOCore

/// docs/language.md#dependent-keys: dependent keys (`@affectedBy` / keyPathsForValuesAffecting).
@Suite struct DependentKeyTests {
    /// `class Person { var firstName = "John"; var lastName = "Appleseed";
    ///  @affectedBy(firstName, lastName) var fullName { firstName + " " + lastName } }`
    func personClass(_ w: World) -> ClassInfo {
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
            ])
    }

    /// conformance c06.
    @Test func dependentKeyIsNotifiedWithOldComputedAtWillAndNewAfter() throws {
        let w = World()
        let person = try w.object(personClass(w), "person")
        let label = w.observerClass("Label")
        let nameLabel = try w.object(label, "nameLabel")
        let firstLabel = try w.object(label, "firstLabel")
        try w.observe(person, firstLabel, "firstName", [.new])
        try w.observe(person, nameLabel, "fullName", [.old, .new])
        try w.set(person, "firstName", .string("Jane"))
        try w.set(person, "lastName", .string("Doe"))
        #expect(
            w.take() == [
                "person.fullName → nameLabel {kind = 1; new = \"Jane Appleseed\"; old = \"John Appleseed\"}",
                "person.firstName → firstLabel {kind = 1; new = Jane}",
                "person.fullName → nameLabel {kind = 1; new = \"Jane Doe\"; old = \"Jane Appleseed\"}",
            ])
        #expect(try w.get(person, "fullName") == .string("Jane Doe"))
    }

    @Test func keyPathsForValuesAffectingHookDeclaresDependencies() throws {
        let w = World()
        let cls = w.makeClass(
            "Person",
            [
                w.stored("firstName", .string, .string("John")),
                w.computed("greeting", .string) { o in
                    guard case .string(let first) = World.ivar(o, "firstName") else { return .null }
                    return .string("Hi_" + first)
                },
            ])
        cls.ownHooks.keyPathsForValuesAffecting = { key in key == "greeting" ? ["firstName"] : [] }
        let person = try w.object(cls, "person")
        let label = try w.object(w.observerClass("Label"), "label")
        try w.observe(person, label, "greeting", [.old, .new])
        try w.setValue(.string("Jane"), person, forKey: "firstName")
        #expect(w.take() == ["person.greeting → label {kind = 1; new = \"Hi_Jane\"; old = \"Hi_John\"}"])
    }

    @Test func manualWillDidOfAnAffectingKeyNotifiesTheDependent() throws {
        let w = World()
        let person = try w.object(personClass(w), "person")
        let label = try w.object(w.observerClass("Label"), "label")
        try w.observe(person, label, "fullName", [.old, .new])
        try w.will(person, "lastName")
        try w.setIvar(person, "lastName", .string("Doe"))
        try w.did(person, "lastName")
        #expect(w.take() == ["person.fullName → label {kind = 1; new = \"John Doe\"; old = \"John Appleseed\"}"])
    }

    @Test func onlyTheKeysThatAffectAnObservanceTriggerIt() throws {
        // An observance remembers the key that triggered it last; other keys,
        // the empty key among them, are still checked against its triggers.
        let w = World()
        let person = try w.object(personClass(w), "person")
        let label = try w.object(w.observerClass("Label"), "label")
        try w.observe(person, label, "fullName", [.new])
        try w.set(person, "lastName", .string("Doe"))
        try w.set(person, "lastName", .string("Roe"))
        for key in ["", "lastNam", "lastNames", "fullname"] {
            try w.will(person, key)
            try w.did(person, key)
        }
        try w.set(person, "firstName", .string("Jane"))
        #expect(
            w.take() == [
                "person.fullName → label {kind = 1; new = \"John Doe\"}",
                "person.fullName → label {kind = 1; new = \"John Roe\"}",
                "person.fullName → label {kind = 1; new = \"Jane Roe\"}",
            ])
    }

    @Test func aManualAffectingKeyWithoutWillDidNotifiesNoDependent() throws {
        let w = World()
        let cls = w.makeClass(
            "Thing",
            [
                w.stored("a", .int, manual: true),
                w.computed("b", .int, affectedBy: ["a"]) { o in World.ivar(o, "a") },
            ])
        let t = try w.object(cls, "t")
        let label = try w.object(w.observerClass("Label"), "label")
        try w.observe(t, label, "b", [.new])
        try w.set(t, "a", .int(1))
        #expect(w.take() == [])
    }

    /// LabColor: color ← redComponent ← lComponent.
    @Test func dependenciesAreFollowedTransitively() throws {
        let w = World()
        let cls = w.makeClass(
            "LabColor",
            [
                w.stored("lComponent", .double),
                w.computed("redComponent", .double, affectedBy: ["lComponent"]) { o in
                    .double((World.ivar(o, "lComponent").number ?? 0) * 2)
                },
                w.computed("color", .double, affectedBy: ["redComponent"]) { o in
                    .double((World.ivar(o, "lComponent").number ?? 0) * 20)
                },
            ])
        let lab = try w.object(cls, "lab")
        let label = w.observerClass("Label")
        let colorWell = try w.object(label, "colorWell")
        let redField = try w.object(label, "redField")
        try w.observe(lab, redField, "redComponent", [.new])
        try w.observe(lab, colorWell, "color", [.old, .new])
        try w.set(lab, "lComponent", .int(1))
        #expect(
            w.take() == [
                "lab.color → colorWell {kind = 1; new = 20; old = 0}",
                "lab.redComponent → redField {kind = 1; new = 2}",
            ])
        #expect(try lab.cls.dependencyClosure(of: "color") == [["redComponent"], ["lComponent"]])
    }

    @Test func anObservanceIsNotifiedOnceEvenWhenReachedThroughSeveralDependencies() throws {
        let w = World()
        let cls = w.makeClass(
            "Thing",
            [
                w.stored("a", .int),
                w.computed("mid", .int, affectedBy: ["a"]) { o in World.ivar(o, "a") },
                w.computed("summary", .int, affectedBy: ["a", "mid"]) { o in World.ivar(o, "a") },
            ])
        let t = try w.object(cls, "t")
        let label = w.observerClass("Label")
        let s = try w.object(label, "s")
        let m = try w.object(label, "m")
        try w.observe(t, s, "summary", [.new])
        try w.observe(t, m, "mid", [.new])
        try w.set(t, "a", .int(4))
        #expect(
            w.take() == [
                "t.mid → m {kind = 1; new = 4}",
                "t.summary → s {kind = 1; new = 4}",
            ])
    }

    @Test func aTwoKeyCycleTerminatesWithOneNotificationPerObservance() throws {
        let w = World()
        let cls = w.makeClass(
            "Pair",
            [
                w.stored("a", .int, affectedBy: ["b"]),
                w.stored("b", .int, affectedBy: ["a"]),
            ])
        let pair = try w.object(cls, "pair")
        let label = w.observerClass("Label")
        let obsA = try w.object(label, "obsA")
        let obsB = try w.object(label, "obsB")
        try w.observe(pair, obsA, "a", [.new])
        try w.observe(pair, obsB, "b", [.new])
        try w.set(pair, "a", .int(1))
        #expect(
            w.take() == [
                "pair.b → obsB {kind = 1; new = 0}",
                "pair.a → obsA {kind = 1; new = 1}",
            ])
        try w.set(pair, "b", .int(2))
        #expect(
            w.take() == [
                "pair.b → obsB {kind = 1; new = 2}",
                "pair.a → obsA {kind = 1; new = 1}",
            ])
    }

    @Test func aThreeKeyCycleTerminatesWithOneNotificationPerObservance() throws {
        let w = World()
        let cls = w.makeClass(
            "Ring",
            [
                w.stored("x", .int, affectedBy: ["z"]),
                w.stored("y", .int, affectedBy: ["x"]),
                w.stored("z", .int, affectedBy: ["y"]),
            ])
        let ring = try w.object(cls, "ring")
        let label = w.observerClass("Label")
        let ox = try w.object(label, "ox"), oy = try w.object(label, "oy"), oz = try w.object(label, "oz")
        try w.observe(ring, ox, "x")
        try w.observe(ring, oy, "y")
        try w.observe(ring, oz, "z")
        try w.set(ring, "y", .int(1))
        #expect(
            w.take() == [
                "ring.z → oz {kind = 1}",
                "ring.y → oy {kind = 1}",
                "ring.x → ox {kind = 1}",
            ])
    }

    @Test func aSelfDependencyIsHarmless() throws {
        let w = World()
        let cls = w.makeClass("Thing", [w.stored("a", .int, affectedBy: ["a"])])
        let t = try w.object(cls, "t")
        let label = try w.object(w.observerClass("Label"), "label")
        try w.observe(t, label, "a", [.new])
        try w.set(t, "a", .int(3))
        #expect(w.take() == ["t.a → label {kind = 1; new = 3}"])
    }

    /// `class Person { var account: Account?; @affectedBy(account.balance) var summary }`
    @Test func affectingKeyPathsThroughAToOneRelationship() throws {
        let w = World()
        let account = w.accountClass()
        let person = w.makeClass(
            "Person",
            [
                w.stored("account", .object("Account")),
                w.computed("summary", .any, affectedBy: ["account.balance"]) { o in
                    guard case .object(let acct) = World.ivar(o, "account") else { return .null }
                    return World.ivar(acct, "balance")
                },
            ])
        let checking = try w.object(account, "checking", [("balance", .double(100))])
        let savings = try w.object(account, "savings", [("balance", .double(500))])
        let p = try w.object(person, "person", [("account", .object(checking))])
        let auditor = try w.object(w.observerClass("Auditor"), "auditor")
        try w.observe(p, auditor, "summary", [.old, .new])
        try w.set(checking, "balance", .double(150))
        try w.set(p, "account", .object(savings))
        try w.set(checking, "balance", .double(175))
        try w.set(savings, "balance", .double(550))
        try w.set(p, "account", .null)
        try w.set(savings, "balance", .double(600))
        #expect(
            w.take() == [
                "person.summary → auditor {kind = 1; new = 150; old = 100}",
                "person.summary → auditor {kind = 1; new = 500; old = 150}",
                "person.summary → auditor {kind = 1; new = 550; old = 500}",
                "person.summary → auditor {kind = 1; new = <null>; old = 550}",
            ])
        #expect(checking.observationInfo == nil)
        #expect(savings.observationInfo == nil)
        try w.unobserve(p, auditor, "summary")
        #expect(p.observationInfo == nil)
    }

    @Test func affectingKeyPathsThroughAnObjectCycleTerminateAndNotifyOnce() throws {
        let w = World()
        // summary is declared affected by name and friend.summary; friends form a cycle.
        let person = w.makeClass(
            "Person",
            [
                w.stored("name", .string),
                w.stored("friend", .object("Person")),
                w.computed("summary", .string, affectedBy: ["name", "friend.summary"]) { o in
                    var text = World.ivar(o, "name").printDescription
                    if case .object(let friend) = World.ivar(o, "friend") {
                        text += "_" + World.ivar(friend, "name").printDescription
                    }
                    return .string(text)
                },
            ])
        let p = try w.object(person, "p", [("name", .string("p"))])
        let q = try w.object(person, "q", [("name", .string("q")), ("friend", .object(p))])
        try w.setIvar(p, "friend", .object(q))
        let label = try w.object(w.observerClass("Label"), "label")
        try w.observe(p, label, "summary", [.old, .new])
        try w.set(p, "name", .string("P"))
        try w.set(q, "name", .string("Q"))
        try w.set(q, "friend", .null)
        #expect(
            w.take() == [
                "p.summary → label {kind = 1; new = \"P_q\"; old = \"p_q\"}",
                "p.summary → label {kind = 1; new = \"P_Q\"; old = \"P_q\"}",
                "p.summary → label {kind = 1; new = \"P_Q\"; old = \"P_Q\"}",
            ])
        try w.unobserve(p, label, "summary")
        #expect(p.observationInfo == nil)
        #expect(q.observationInfo == nil)
    }

    /// An affecting key path through a to-many relationship is forwarded to
    /// the collection, which raises when an observer of the dependent key
    /// registers; nothing stays registered (docs/language.md#dependent-keys).
    @Test func affectingKeyPathThroughAToManyRelationshipRaisesAtRegistration() throws {
        let w = World()
        let employee = w.makeClass("Employee", [w.stored("salary", .double)])
        let department = w.makeClass(
            "Department",
            [
                w.stored("employees", .array(.object("Employee"))),
                w.computed("total", .double, affectedBy: ["employees.salary"]) { _ in .double(0) },
            ])
        let e = try w.object(employee, "e")
        let dept = try w.object(department, "dept", [("employees", .array([.object(e)]))])
        let report = try w.object(w.observerClass("Report"), "report")
        let error = cocoaException { try w.observe(dept, report, "total", [.new]) }
        #expect(error?.name == "NSInvalidArgumentException")
        #expect(
            error?.reason
                == "[<__NSArrayM dept.employees> addObserver:forKeyPath:options:context:] is not supported. Key path: salary"
        )
        #expect(e.observationInfo == nil)
        #expect(dept.observationInfo == nil)
        try w.set(e, "salary", .double(10))
        #expect(w.take() == [])
    }

    /// `.initial` is delivered before the collection raises, as Apple sends
    /// it before registering.
    @Test func initialIsDeliveredBeforeTheAffectingPathRaises() throws {
        let w = World()
        let employee = w.makeClass("Employee", [w.stored("salary", .double)])
        let department = w.makeClass(
            "Department",
            [
                w.stored("employees", .array(.object("Employee"))),
                w.computed("total", .double, affectedBy: ["employees.salary"]) { _ in .double(7) },
            ])
        let e = try w.object(employee, "e")
        let dept = try w.object(department, "dept", [("employees", .array([.object(e)]))])
        let report = try w.object(w.observerClass("Report"), "report")
        let error = cocoaException { try w.observe(dept, report, "total", [.initial, .new]) }
        #expect(error?.name == "NSInvalidArgumentException")
        #expect(w.take() == ["dept.total → report {kind = 1; new = 7}"])
        #expect(dept.observationInfo == nil)
    }

    /// An operator that ends an affecting key path stays with the object.
    @Test func affectingCountOfAToManyRelationshipNotifies() throws {
        let w = World()
        let department = w.makeClass(
            "Department",
            [
                w.stored("employees", .array(.string)),
                w.computed("size", .int, affectedBy: ["employees.@count"]) { o in
                    guard case .array(let items) = World.ivar(o, "employees") else { return .int(0) }
                    return .int(items.count)
                },
            ])
        let dept = try w.object(department, "dept")
        let report = try w.object(w.observerClass("Report"), "report")
        try w.observe(dept, report, "size", [.new])
        try w.rt.mutateArray(dept, keyPath: "employees", .insert([.string("a")], at: [0]))
        #expect(w.take() == ["dept.size → report {kind = 1; new = 1}"])
    }

    @Test func dependentOfAToManyKeyGetsASettingForProxyMutations() throws {
        let w = World()
        let list = w.makeClass(
            "List",
            [
                w.stored("items", .array(.string)),
                w.computed("count", .int, affectedBy: ["items"]) { o in
                    guard case .array(let items) = World.ivar(o, "items") else { return .int(0) }
                    return .int(items.count)
                },
            ])
        let l = try w.object(list, "l")
        let label = w.observerClass("Label")
        let counter = try w.object(label, "counter")
        let viewer = try w.object(label, "viewer")
        try w.observe(l, counter, "count", [.old, .new])
        try w.observe(l, viewer, "items", [.old, .new])
        try w.rt.mutateArray(l, keyPath: "items", .insert([.string("a")], at: [0]))
        #expect(
            w.take() == [
                "l.items → viewer {indexes = (0); kind = 2; new = (a)}",
                "l.count → counter {kind = 1; new = 1; old = 0}",
            ])
    }

    @Test func transitiveChainsContinueThroughAffectingKeyPaths() throws {
        let w = World()
        let account = w.accountClass()
        let person = w.makeClass(
            "Person",
            [
                w.stored("account", .object("Account")),
                w.computed("worth", .any, affectedBy: ["account.balance"]) { o in
                    guard case .object(let acct) = World.ivar(o, "account") else { return .null }
                    return World.ivar(acct, "balance")
                },
                w.computed("status", .any, affectedBy: ["worth"]) { o in
                    guard case .object(let acct) = World.ivar(o, "account") else { return .null }
                    return World.ivar(acct, "balance")
                },
            ])
        let acct = try w.object(account, "acct", [("balance", .double(1))])
        let p = try w.object(person, "p", [("account", .object(acct))])
        let label = try w.object(w.observerClass("Label"), "label")
        try w.observe(p, label, "status", [.old, .new])
        try w.set(acct, "balance", .double(2))
        #expect(w.take() == ["p.status → label {kind = 1; new = 2; old = 1}"])
    }

    @Test func aChangeToAnyObjectAlongATwoLevelAffectingPathCounts() throws {
        let w = World()
        let owner = w.makeClass("Owner", [w.stored("name", .string)])
        let account = w.makeClass("Account", [w.stored("owner", .object("Owner"))])
        let person = w.makeClass(
            "Person",
            [
                w.stored("account", .object("Account")),
                w.computed("ownerName", .any, affectedBy: ["account.owner.name"]) { o in
                    guard case .object(let acct) = World.ivar(o, "account"),
                        case .object(let who) = World.ivar(acct, "owner")
                    else { return .null }
                    return World.ivar(who, "name")
                },
            ])
        let ann = try w.object(owner, "ann", [("name", .string("Ann"))])
        let bob = try w.object(owner, "bob", [("name", .string("Bob"))])
        let acct = try w.object(account, "acct", [("owner", .object(ann))])
        let other = try w.object(account, "other", [("owner", .object(bob))])
        let p = try w.object(person, "p", [("account", .object(acct))])
        let label = try w.object(w.observerClass("Label"), "label")
        try w.observe(p, label, "ownerName", [.old, .new])
        try w.set(ann, "name", .string("Anna"))
        try w.set(acct, "owner", .object(bob))
        try w.set(ann, "name", .string("Ignored"))
        try w.set(p, "account", .object(other))
        try w.set(bob, "name", .string("Rob"))
        #expect(
            w.take() == [
                "p.ownerName → label {kind = 1; new = Anna; old = Ann}",
                "p.ownerName → label {kind = 1; new = Bob; old = Anna}",
                "p.ownerName → label {kind = 1; new = Bob; old = Bob}",
                "p.ownerName → label {kind = 1; new = Rob; old = Bob}",
            ])
        try w.unobserve(p, label, "ownerName")
        for object in [ann, bob, acct, other, p] { #expect(object.observationInfo == nil, "\(object.name)") }
    }
}
