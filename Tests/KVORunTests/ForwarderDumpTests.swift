import _KVOTestSupport
import KVORun
import Testing

/// SPEC §8.3 (and §6.5), rule 8 of issue 27: the forwarders of key paths and
/// of a dependent key's affecting key paths, and identical registrations
/// sharing one observance.
@Suite struct ForwarderDumpTests {
    let classes = """
        context Ctx
        class Account { var balance: Double = 0 }
        class Person {
            var account: Account?
            @affectedBy(account.balance)
            var summary: String { "s" }
        }
        let acct = Account()
        let person = Person(account: acct)
        let w = Person()

        """

    @Test func anAffectingKeyPathsForwarderHasPriorAloneAndTheNestedPropertyAsContext() {
        let result = run(
            classes + """
                person.addObserver(w, forKeyPath: "summary", options: [.new, .old], context: Ctx)
                print(acct.observationInfo)
                """)
        #expect(
            result.out == """
                <NSKeyValueObservationInfo acct> (
                <NSKeyValueObservance acct[0]: Observer: person[0], Key path: balance, Options: <New: NO, Old: NO, Prior: YES> Context: Person.account.balance, Property: Account.balance>
                )

                """, "\(result)")
    }

    @Test func aKeyPathsForwarderCopiesTheOptionsWithANullContext() {
        let result = run(
            classes + """
                person.addObserver(w, forKeyPath: "account.balance", options: [.new, .old], context: Ctx)
                print(acct.observationInfo)
                """)
        #expect(
            result.out == """
                <NSKeyValueObservationInfo acct> (
                <NSKeyValueObservance acct[0]: Observer: person[0], Key path: balance, Options: <New: YES, Old: YES, Prior: NO> Context: 0x0, Property: Account.balance>
                )

                """, "\(result)")
    }

    @Test func identicalRegistrationsShareOneObservanceInTheDump() {
        let result = run(
            classes + """
                person.addObserver(w, forKeyPath: "summary", options: [.new], context: Ctx)
                person.addObserver(w, forKeyPath: "summary", options: [.new])
                person.addObserver(w, forKeyPath: "summary", options: [.new], context: Ctx)
                print(person.observationInfo)
                print(acct.observationInfo)
                """)
        #expect(
            result.out == """
                <NSKeyValueObservationInfo person> (
                <NSKeyValueObservance person[0]: Observer: w, Key path: summary, Options: <New: YES, Old: NO, Prior: NO> Context: Ctx, Property: Person.summary>
                <NSKeyValueObservance person[1]: Observer: w, Key path: summary, Options: <New: YES, Old: NO, Prior: NO> Context: 0x0, Property: Person.summary>
                <NSKeyValueObservance person[0]: Observer: w, Key path: summary, Options: <New: YES, Old: NO, Prior: NO> Context: Ctx, Property: Person.summary>
                )
                <NSKeyValueObservationInfo acct> (
                <NSKeyValueObservance acct[0]: Observer: person[0], Key path: balance, Options: <New: NO, Old: NO, Prior: YES> Context: Person.account.balance, Property: Account.balance>
                <NSKeyValueObservance acct[1]: Observer: person[1], Key path: balance, Options: <New: NO, Old: NO, Prior: YES> Context: Person.account.balance, Property: Account.balance>
                <NSKeyValueObservance acct[0]: Observer: person[0], Key path: balance, Options: <New: NO, Old: NO, Prior: YES> Context: Person.account.balance, Property: Account.balance>
                )

                """, "\(result)")
    }

    /// §6.5: a pending notification is delivered if an identical registration
    /// is present at did time.
    @Test func aSharedObservanceStillDeliversWhenOneIdenticalRegistrationIsRemovedMidChange() {
        let result = run(
            """
            class Account { @manual var balance: Double = 0 }
            class Person { }
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new])
            acct.addObserver(alice, forKeyPath: "balance", options: [.new])
            acct.willChangeValue(forKey: "balance")
            acct.balance = 1
            acct.removeObserver(alice, forKeyPath: "balance")
            acct.didChangeValue(forKey: "balance")
            acct.willChangeValue(forKey: "balance")
            acct.balance = 2
            acct.removeObserver(alice, forKeyPath: "balance")
            acct.addObserver(alice, forKeyPath: "balance", options: [.new])
            acct.didChangeValue(forKey: "balance")
            """)
        #expect(
            result.out == """
                acct.balance → alice {kind = 1; new = 1}
                acct.balance → alice {kind = 1; new = 1}
                acct.balance → alice {kind = 1; new = 2}

                """, "\(result)")
    }
}
