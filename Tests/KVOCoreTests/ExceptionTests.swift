import Testing
@testable import KVOCore

/// docs/language.md#exceptions: Apple's exception names and reason texts, pointers replaced by names.
@Suite struct ExceptionTests {
    func objects(_ w: World) throws -> (acct: KVOObject, alice: KVOObject) {
        try w.acctAndAlice()
    }

    @Test func theTableOfSection7() throws {
        let w = World()
        let (acct, alice) = try objects(w)

        let remove = Exceptions.cannotRemove(observer: alice, keyPath: "balance", from: acct)
        #expect(remove.0 == "NSRangeException")
        #expect(
            remove.1
                == "Cannot remove an observer <Person alice> for the key path \"balance\" from <Account acct> because it is not registered as an observer."
        )

        let get = Exceptions.undefinedKeyGet(acct.pointerDescription, key: "nope")
        #expect(get.0 == "NSUnknownKeyException")
        #expect(
            get.1
                == "[<Account acct> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope."
        )

        let set = Exceptions.undefinedKeySet(acct.pointerDescription, key: "nope")
        #expect(set.0 == "NSUnknownKeyException")
        #expect(
            set.1
                == "[<Account acct> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key nope."
        )

        let setNil = Exceptions.setNil(acct, key: "balance")
        #expect(setNil.0 == "NSInvalidArgumentException")
        #expect(setNil.1 == "[<Account acct> setNilValueForKey]: could not set nil as the value for the key balance.")

        let observeArray = Exceptions.observeCollection("<__NSArrayM dept.employees>", keyPath: "salary")
        #expect(observeArray.0 == "NSInvalidArgumentException")
        #expect(
            observeArray.1
                == "[<__NSArrayM dept.employees> addObserver:forKeyPath:options:context:] is not supported. Key path: salary"
        )

        let unhandled = Exceptions.unhandled(
            observer: alice, keyPath: "balance", object: acct,
            change: Change(kind: .setting, new: .double(2)), context: nil)
        #expect(unhandled.0 == "NSInternalInconsistencyException")
        #expect(
            unhandled.1 == """
                <Person: alice>: An -observeValueForKeyPath:ofObject:change:context: message was received but not handled.
                Key path: balance
                Observed object: <Account: acct>
                Change: {
                    kind = 1;
                    new = 2;
                }
                Context: 0x0
                """)

        let bounds = Exceptions.beyondBounds("objectAtIndex:", index: 5, count: 3)
        #expect(bounds.0 == "NSRangeException")
        #expect(bounds.1 == "*** -[NSMutableArray objectAtIndex:]: index 5 beyond bounds [0 .. 2]")
    }

    @Test func anUnhandledNotificationNamesItsContext() throws {
        let w = World()
        let (acct, alice) = try objects(w)
        let error = w.rt.unhandledNotification(
            observer: alice, keyPath: "balance", object: acct,
            change: Change(kind: .setting, new: .double(1), old: .double(0)),
            context: Context(name: "Other"))
        guard case .exception(let exception) = error else {
            Issue.record("expected an exception")
            return
        }
        #expect(exception.reason.hasSuffix("\nChange: {\n    kind = 1;\n    new = 1;\n    old = 0;\n}\nContext: Other"))
    }

    /// SPEC §7, rule 9 of issue 27: `Change:` is NSDictionary's multi-line
    /// description, its values described (and quoted) as in §3, and arrays
    /// and sets inside it as NSArray and NSSet describe themselves there.
    @Test func theUnhandledReasonShowsTheChangeAsNSDictionaryDescribesIt() throws {
        let change = Change(
            kind: .removal, indexes: [0, 2], old: .array([.string("a b"), .double(2.5)]), isPrior: true)
        #expect(
            change.dictionaryDescription == """
                {
                    indexes = (
                        0,
                        2
                    );
                    kind = 3;
                    notificationIsPrior = 1;
                    old = (
                        "a b",
                        "2.5"
                    );
                }
                """)
        let setting = Change(kind: .setting, new: .double(100.5), old: .array([]))
        #expect(setting.dictionaryDescription == "{\n    kind = 1;\n    new = \"100.5\";\n    old = (\n    );\n}")
        let nested = Change(kind: .setting, new: .set(ValueSet([.array([.int(1)])])))
        #expect(
            nested.dictionaryDescription
                == "{\n    kind = 1;\n    new = {(\n        (\n            1\n        )\n    )};\n}")
    }

    @Test func exceptionsRecordTheDepthTheyAreRaisedAt() throws {
        let w = World()
        let (acct, _) = try objects(w)
        let prober = w.observerClass("Prober")
        prober.ownHooks.observeValue = { _, _, object, _, _ in _ = try w.value(object, forKey: "nope") }
        let p = try w.object(prober, "p")
        try w.observe(acct, p, "balance")
        let error = cocoaException { try w.set(acct, "balance", .double(1)) }
        #expect(error?.name == "NSUnknownKeyException")
        #expect(error?.depth == 1)
        let atTop = cocoaException { _ = try w.value(acct, forKey: "nope") }
        #expect(atTop?.depth == 0)
    }

    @Test func anExceptionDescribesItselfWithNameAndReason() {
        let exception = CocoaException(name: "NSRangeException", reason: "why")
        #expect(Value.exception(exception).printDescription == "NSRangeException: why")
        #expect(exception.depth == 0)
    }

    @Test func runtimeFailureShorthand() {
        guard case .runtime(let failure) = ScriptError.runtime("bad") else {
            Issue.record("expected a runtime error")
            return
        }
        #expect(failure == RuntimeFailure("bad"))
        #expect(failure.line == nil)
    }

    @Test func observingWithAnUnreadableInitialValueRaisesAndRegistersNothing() throws {
        let w = World()
        let (acct, alice) = try objects(w)
        let error = cocoaException { try w.observe(acct, alice, "nope", [.initial, .new]) }
        #expect(
            error?.reason
                == "[<Account acct> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope."
        )
        #expect(acct.observationInfo == nil)
    }

    /// Apple's nested property reads the relationship while registering, so an
    /// undefined first component of a key path raises at addObserver.
    @Test func observingAKeyPathThroughAnUndefinedKeyRaisesUnknownKey() throws {
        let w = World()
        let (acct, alice) = try objects(w)
        let error = cocoaException { try w.observe(acct, alice, "nope.balance", [.new]) }
        #expect(error?.name == "NSUnknownKeyException")
        #expect(
            error?.reason
                == "[<Account acct> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nope."
        )
    }
}
