import Testing
@testable import KVOCore

/// Key-Value Coding: value(forKey:), setValue(_:forKey:), key paths, hooks,
/// coercion (docs/language.md#properties, docs/language.md#foundation-api, docs/language.md#exceptions).
@Suite struct KVCTests {
    func account(_ w: World) throws -> KVOObject {
        let cls = w.makeClass(
            "Account",
            [
                w.stored("balance", .double),
                w.stored("count", .int),
                w.stored("open", .bool),
                w.stored("name", .string, .string("Checking")),
                w.stored("owner", .object("Person")),
                w.computed("summary", .string) { o in .string("S_" + World.ivar(o, "name").printDescription) },
            ])
        return try w.object(cls, "acct")
    }

    // MARK: Reading

    @Test func valueForKeyReadsStoredComputedAndSelf() throws {
        let w = World()
        let acct = try account(w)
        #expect(try w.value(acct, forKey: "name") == .string("Checking"))
        #expect(try w.value(acct, forKey: "balance") == .double(0))
        #expect(try w.value(acct, forKey: "summary") == .string("S_Checking"))
        #expect(try w.value(acct, forKey: "owner") == .null)
        #expect(try w.value(acct, forKey: "self") == .object(acct))
    }

    @Test func valueForKeyFindsZeroArgumentMethodsAsGetters() throws {
        let w = World()
        let acct = try account(w)
        acct.cls.ownHooks.getterMethods["doubled"] = { o in .double((World.ivar(o, "balance").number ?? 0) * 2) }
        try w.setIvar(acct, "balance", .double(21))
        #expect(try w.value(acct, forKey: "doubled") == .double(42))
    }

    @Test func valueForUndefinedKeyRaisesUnknownKeyWithAppleText() throws {
        let w = World()
        let acct = try account(w)
        let error = cocoaException { _ = try w.value(acct, forKey: "nope") }
        #expect(error?.name == "NSUnknownKeyException")
        #expect(
            error?.reason
                == "[<Account acct> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope."
        )
        let viaPath = cocoaException { _ = try w.value(acct, forKeyPath: "nope.balance") }
        #expect(
            viaPath?.reason
                == "[<Account acct> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope."
        )
    }

    @Test func valueForUndefinedKeyHookIsCalledInstead() throws {
        let w = World()
        let acct = try account(w)
        var asked: [String] = []
        acct.cls.ownHooks.valueForUndefinedKey = { _, key in
            asked.append(key)
            return .int(7)
        }
        #expect(try w.value(acct, forKey: "nope") == .int(7))
        #expect(asked == ["nope"])
    }

    @Test func valueForKeyPathFollowsToOneRelationshipsAndNilGivesNull() throws {
        let w = World()
        let acct = try account(w)
        let person = w.makeClass("Person", [w.stored("account", .object("Account"))])
        let p = try w.object(person, "p", [("account", .object(acct))])
        #expect(try w.value(p, forKeyPath: "account.name") == .string("Checking"))
        try w.setIvar(p, "account", .null)
        #expect(try w.value(p, forKeyPath: "account.name") == .null)
        #expect(try w.value(p, forKeyPath: "account.nope") == .null)
    }

    @Test func valueForKeyOnAnArrayMapsOverTheElements() throws {
        let w = World()
        let cls = w.accountClass()
        let a = try w.object(cls, "a", [("balance", .double(1))])
        let b = try w.object(cls, "b", [("balance", .double(2))])
        let result = try w.rt.value(of: .array([.object(a), .object(b)]), forKey: "balance")
        #expect(result.collectionDescription == "(1, 2)")
        let error = cocoaException { _ = try w.rt.value(of: .array([.object(a)]), forKey: "nope") }
        #expect(
            error?.reason
                == "[<Account a> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope."
        )
    }

    @Test func valueForKeyOnNullIsNull() throws {
        let w = World()
        #expect(try w.rt.value(of: .null, forKey: "anything") == .null)
        #expect(try w.rt.value(of: .null, forKeyPath: "a.b.c") == .null)
    }

    @Test func valueForAnUndefinedKeyOfAScalarRaisesUnknownKey() throws {
        let w = World()
        let error = cocoaException { _ = try w.rt.value(of: .int(3), forKey: "nope") }
        #expect(error?.name == "NSUnknownKeyException")
        #expect(
            error?.reason.hasSuffix(
                "valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope.") == true)
        #expect(try w.rt.value(of: .int(3), forKey: "self") == .int(3))
    }

    // MARK: Writing

    @Test func setValueForUndefinedKeyRaisesUnknownKeyWithAppleText() throws {
        let w = World()
        let acct = try account(w)
        let error = cocoaException { try w.setValue(.int(1), acct, forKey: "nope") }
        #expect(error?.name == "NSUnknownKeyException")
        #expect(
            error?.reason
                == "[<Account acct> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key nope."
        )
    }

    @Test func setValueOnAReadOnlyComputedPropertyIsAnUndefinedKey() throws {
        let w = World()
        let acct = try account(w)
        let error = cocoaException { try w.setValue(.string("x"), acct, forKey: "summary") }
        #expect(error?.name == "NSUnknownKeyException")
        #expect(
            error?.reason
                == "[<Account acct> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key summary."
        )
    }

    @Test func setValueForUndefinedKeyHookIsCalledInstead() throws {
        let w = World()
        let acct = try account(w)
        var received: [(Value, String)] = []
        acct.cls.ownHooks.setValueForUndefinedKey = { _, value, key in received.append((value, key)) }
        try w.setValue(.int(1), acct, forKey: "nope")
        #expect(received.count == 1)
        #expect(received.first?.0 == .int(1))
        #expect(received.first?.1 == "nope")
    }

    @Test func setNilForAScalarRaisesInvalidArgumentAndDoesNotNotify() throws {
        let w = World()
        let acct = try account(w)
        let p = try w.object(w.personClass(), "p")
        try w.observe(acct, p, "balance", [.prior, .new, .old])
        let error = cocoaException { try w.setValue(.null, acct, forKey: "balance") }
        #expect(error?.name == "NSInvalidArgumentException")
        #expect(
            error?.reason == "[<Account acct> setNilValueForKey]: could not set nil as the value for the key balance.")
        #expect(w.take() == [])
        #expect(try w.get(acct, "balance") == .double(0))
    }

    @Test func setNilValueForKeyHookIsCalledInstead() throws {
        let w = World()
        let acct = try account(w)
        let p = try w.object(w.personClass(), "p")
        try w.setIvar(acct, "balance", .double(5))
        acct.cls.ownHooks.setNilValueForKey = { object, key in
            try w.setValue(.int(0), object, forKey: key)
        }
        try w.observe(acct, p, "balance", [.new, .old])
        try w.setValue(.null, acct, forKey: "balance")
        #expect(w.take() == ["acct.balance → p {kind = 1; new = 0; old = 5}"])
    }

    @Test func setNilForObjectValuesStoresNil() throws {
        let w = World()
        let acct = try account(w)
        try w.setValue(.null, acct, forKey: "name")
        #expect(try w.value(acct, forKey: "name") == .null)
        #expect(try w.value(acct, forKey: "name").printDescription == "nil")
        try w.setValue(.null, acct, forKey: "owner")
        #expect(try w.value(acct, forKey: "owner") == .null)
    }

    @Test func setValueForKeyPathThroughNilDoesNothing() throws {
        let w = World()
        let person = w.makeClass("Person", [w.stored("account", .object("Account"))])
        _ = w.accountClass()
        let p = try w.object(person, "p")
        try w.setValue(.int(1), p, forKeyPath: "account.balance")
        #expect(try w.value(p, forKeyPath: "account.balance") == .null)
    }

    @Test func setValueOnAnArraySetsEveryElement() throws {
        let w = World()
        let cls = w.accountClass()
        let a = try w.object(cls, "a"), b = try w.object(cls, "b")
        let p = try w.object(w.personClass(), "p")
        try w.observe(a, p, "balance", [.new])
        try w.observe(b, p, "balance", [.new])
        try w.rt.setValue(.int(3), of: .array([.object(a), .object(b)]), forKey: "balance")
        #expect(w.take() == ["a.balance → p {kind = 1; new = 3}", "b.balance → p {kind = 1; new = 3}"])
    }

    // MARK: Coercion (docs/language.md#properties)

    @Test(
        arguments: [
            ("12abc", 12), ("abc", 0), ("", 0), ("  42", 42), ("-7x", -7), ("+5", 5), ("3.9", 3),
        ] as [(String, Int)])
    func aStringGivesTheIntegerItStartsWith(text: String, expected: Int) throws {
        let w = World()
        let acct = try account(w)
        try w.setValue(.string(text), acct, forKey: "count")
        let stored = try w.get(acct, "count")
        #expect(stored == .int(expected))
        #expect(stored.typeName == "Int")
    }

    /// KVC sets an NSInteger from a string with `-longLongValue`, which scans an
    /// integer: "1e3" gives 1, not 1000.
    @Test func anIntegerFromAStringStopsAtTheExponent() throws {
        let w = World()
        let acct = try account(w)
        try w.setValue(.string("1e3"), acct, forKey: "count")
        #expect(try w.get(acct, "count") == .int(1))
    }

    /// NSString's numeric scanning is decimal only: "0x1A" gives 0.
    @Test func hexadecimalStringsAreNotNumbersToKVC() throws {
        let w = World()
        let acct = try account(w)
        try w.setValue(.string("0x1A"), acct, forKey: "count")
        #expect(try w.get(acct, "count") == .int(0))
        try w.setValue(.string("0x1A"), acct, forKey: "balance")
        #expect(try w.get(acct, "balance") == .double(0))
    }

    @Test(
        arguments: [
            ("2.5kg", 2.5), ("1e3", 1000), ("  -0.25", -0.25), ("x", 0), ("7", 7),
        ] as [(String, Double)])
    func aStringGivesTheDoubleItStartsWith(text: String, expected: Double) throws {
        let w = World()
        let acct = try account(w)
        try w.setValue(.string(text), acct, forKey: "balance")
        let stored = try w.get(acct, "balance")
        #expect(stored == .double(expected))
        #expect(stored.typeName == "Double")
    }

    @Test func numbersConvertBetweenIntDoubleAndBool() throws {
        let w = World()
        let acct = try account(w)
        try w.setValue(.double(3.9), acct, forKey: "count")
        #expect(try w.get(acct, "count").typeName == "Int")
        #expect(try w.get(acct, "count") == .int(3))
        try w.setValue(.double(-3.9), acct, forKey: "count")
        #expect(try w.get(acct, "count") == .int(-3))
        try w.setValue(.bool(true), acct, forKey: "count")
        #expect(try w.get(acct, "count") == .int(1))
        try w.setValue(.int(3), acct, forKey: "balance")
        #expect(try w.get(acct, "balance").typeName == "Double")
        try w.setValue(.int(2), acct, forKey: "open")
        #expect(try w.get(acct, "open").typeName == "Bool")
        #expect(try w.get(acct, "open") == .bool(true))
        try w.setValue(.double(0), acct, forKey: "open")
        #expect(try w.get(acct, "open") == .bool(false))
    }

    @Test(
        arguments: [
            ("YES", true), ("yes", true), ("true", true), ("T", true), ("1", true), ("  9", true),
            ("-1", true), ("007", true), ("no", false), ("0", false), ("", false), ("false", false), ("000", false),
        ] as [(String, Bool)])
    func aStringGivesABoolAsNSStringBoolValue(text: String, expected: Bool) throws {
        let w = World()
        let acct = try account(w)
        try w.setValue(.string(text), acct, forKey: "open")
        #expect(try w.get(acct, "open") == .bool(expected))
    }

    @Test func theSetterChecksTypesAndConvertsIntToDouble() throws {
        let w = World()
        let acct = try account(w)
        try w.set(acct, "balance", .int(5))
        #expect(try w.get(acct, "balance").typeName == "Double")
        let failure = runtimeFailure { try w.set(acct, "balance", .string("x")) }
        #expect(failure != nil)
        #expect(failure?.message.contains("balance") == true)
        let intFromDouble = runtimeFailure { try w.set(acct, "count", .double(1.5)) }
        #expect(intFromDouble != nil)
        #expect(try w.get(acct, "balance") == .double(5))
    }

    @Test func objectPropertiesAcceptSubclassInstancesOnly() throws {
        let w = World()
        let person = w.personClass()
        let employee = w.makeClass("Employee", superclass: person)
        let dog = w.makeClass("Dog")
        let acct = try account(w)
        try w.set(acct, "owner", .object(try w.object(employee, "e")))
        #expect(runtimeFailure { try w.set(acct, "owner", .object(try w.object(dog, "rex"))) } != nil)
    }

    @Test func setIvarOfAComputedPropertyIsARuntimeError() throws {
        let w = World()
        let acct = try account(w)
        #expect(runtimeFailure { try w.setIvar(acct, "summary", .string("x")) } != nil)
        #expect(runtimeFailure { try w.set(acct, "summary", .string("x")) } != nil)
    }

    // MARK: Objects

    @Test func objectsAreNamedAfterTheirBindingOrClassAndCount() throws {
        let w = World()
        let cls = w.accountClass()
        let acct = try w.object(cls, "acct")
        let second = try w.object(cls)
        let third = try w.object(cls)
        #expect(acct.name == "acct")
        #expect(second.name == "Account#2")
        #expect(third.name == "Account#3")
        #expect(acct.description == "<Account: acct>")
        #expect(acct.pointerDescription == "<Account acct>")
        #expect(w.rt.objectCount == 3)
    }

    @Test func subclassesInheritPropertiesAndDefaults() throws {
        let w = World()
        let account = w.makeClass("Account", [w.stored("balance", .double, .double(10))])
        let savings = w.makeClass("Savings", superclass: account, [w.stored("rate", .double, .double(0.5))])
        let s = try w.object(savings, "s")
        #expect(try w.value(s, forKey: "balance") == .double(10))
        #expect(try w.value(s, forKey: "rate") == .double(0.5))
        #expect(savings.isSubclass(of: account))
        #expect(!account.isSubclass(of: savings))
        #expect(savings.slotCount == 2)
    }

    @Test func aComputedPropertyWithASetterIsWritableThroughKVCAndNotifies() throws {
        let w = World()
        let celsius = w.stored("celsius", .double)
        let fahrenheit = w.computed("fahrenheit", .double, affectedBy: ["celsius"]) { o in
            .double((World.ivar(o, "celsius").number ?? 0) * 9 / 5 + 32)
        }
        let cls = w.makeClass("Thermo", [celsius, fahrenheit])
        fahrenheit.setter = { o, value in
            try w.setIvar(o, "celsius", .double(((value.number ?? 0) - 32) * 5 / 9))
        }
        let t = try w.object(cls, "t")
        let p = try w.object(w.personClass(), "p")
        try w.observe(t, p, "celsius", [.new])
        try w.observe(t, p, "fahrenheit", [.old, .new])
        try w.setValue(.int(212), t, forKey: "fahrenheit")
        #expect(w.take() == ["t.fahrenheit → p {kind = 1; new = 212; old = 32}"])
        #expect(try w.get(t, "celsius") == .double(100))
    }
}
