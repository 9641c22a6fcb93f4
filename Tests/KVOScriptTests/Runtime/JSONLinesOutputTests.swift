import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// The JSON Lines output format (docs/language.md#output).
@Suite struct JSONLinesOutputTests: RunExpectations {
    @Test func jsonEventsAreExact() {
        expectRun(
            """
            context Ctx
            class Account { var balance: Double = 0 }
            class Person { }
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old, .prior], context: Ctx)
            acct.balance = 2.5
            print(acct.observationInfo)
            print("a\\tb \\"q\\"", 1, nil)
            do {
                acct.removeObserver(alice, forKeyPath: "nope")
            } catch NSRangeException {
                print(error.name)
            }
            let xs = [1]
            print(xs[1])
            acct.removeObserver(alice, forKeyPath: "balance", context: Ctx)
            print(acct.observationInfo)
            acct.removeObserver(alice, forKeyPath: "balance")
            print("reached with keepGoing")
            """, options: options(keepGoing: true), format: .json, status: 1,
            out: #"""
                {"event":"notify","object":"acct","keyPath":"balance","observer":"alice","change":{"kind":1,"notificationIsPrior":true,"old":0},"context":"Ctx","depth":0}
                {"event":"notify","object":"acct","keyPath":"balance","observer":"alice","change":{"kind":1,"new":2.5,"old":0},"context":"Ctx","depth":0}
                {"event":"observationInfo","object":"acct","observances":[{"observer":"alice","keyPath":"balance","options":["new","old","prior"],"context":"Ctx"}]}
                {"event":"print","text":"a\tb \"q\" 1 nil","depth":0}
                {"event":"exception","name":"NSRangeException","reason":"Cannot remove an observer <Person alice> for the key path \"nope\" from <Account acct> because it is not registered as an observer.","caught":true,"depth":0,"line":11,"column":24}
                {"event":"print","text":"NSRangeException","depth":0}
                {"event":"error","message":"index 1 out of range for an array of 1 element","line":16,"column":6,"file":"t.kvo"}
                {"event":"observationInfo","object":"acct","observances":[]}
                {"event":"exception","name":"NSRangeException","reason":"Cannot remove an observer <Person alice> for the key path \"balance\" from <Account acct> because it is not registered as an observer.","caught":false,"depth":0,"line":19,"column":20}
                {"event":"print","text":"reached with keepGoing","depth":0}

                """#)
    }

    @Test func jsonUncaughtExceptionIsTheLastLine() {
        expectRun(
            Self.observed + """
                acct.addObserver(alice, forKeyPath: "balance")
                acct.balance = 1
                acct.removeObserver(alice, forKeyPath: "balance")
                acct.removeObserver(alice, forKeyPath: "balance")
                print("not reached")
                """, options: options(), format: .json, status: 1,
            out: #"""
                {"event":"notify","object":"acct","keyPath":"balance","observer":"alice","change":{"kind":1},"context":null,"depth":0}
                {"event":"exception","name":"NSRangeException","reason":"Cannot remove an observer <Person alice> for the key path \"balance\" from <Account acct> because it is not registered as an observer.","caught":false,"depth":0,"line":8,"column":20}

                """#)
    }

    @Test func jsonRuntimeErrorIsAnEventOnStandardOutput() {
        expectRun(
            "print(1)\nlet z = 0\nprint(1 / z)\n", options: options(), format: .json, status: 1,
            out: """
                {"event":"print","text":"1","depth":0}
                {"event":"error","message":"division by zero","line":3,"column":9,"file":"t.kvo"}

                """)
    }

    @Test func jsonValuesAndNestedDepth() {
        expectRun(
            """
            class Item { var name: String = "" }
            class Box {
                var items: [Item]
                var count: Int = 0
                var owner: Item?
                func observeValue(keyPath, object, change, context) {
                    print("handled", keyPath)
                }
            }
            let box = Box()
            let pen = Item(name: "pen")
            box.addObserver(box, forKeyPath: "items", options: [.new, .old])
            box.addObserver(box, forKeyPath: "owner", options: [.new, .old])
            box.mutableArrayValue(forKey: "items").add(pen)
            box.owner = pen
            """, options: options(), format: .json, status: 0,
            out: #"""
                {"event":"notify","object":"box","keyPath":"items","observer":"box","change":{"indexes":[0],"kind":2,"new":[{"object":"pen","class":"Item"}]},"context":null,"depth":0}
                {"event":"print","text":"handled items","depth":1}
                {"event":"notify","object":"box","keyPath":"owner","observer":"box","change":{"kind":1,"new":{"object":"pen","class":"Item"},"old":null},"context":null,"depth":0}
                {"event":"print","text":"handled owner","depth":1}

                """#)
    }
}
