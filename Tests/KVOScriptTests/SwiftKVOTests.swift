import _KVOTestSupport
import KVORun
import Testing
import KVOCore
@testable import KVOScript

/// Swift's own KVO: `import Foundation`, `@objc dynamic`, `observe` tokens,
/// the Objective-C API spelled as in Swift, the isa-swizzle, validation.
@Suite struct SwiftKVOTests {
    static let account = """
        import Foundation
        class Account: NSObject {
            @objc dynamic var balance: Double = 0
            @objc var notDynamic: Int = 0
            var plain: Int = 0
        }
        let acct = Account()

        """

    func expectRun(
        _ source: String, status: Int32 = 0, out: String, err: String = "",
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let result = run(source)
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        #expect(result.out == out, sourceLocation: sourceLocation)
        #expect(result.err == err, sourceLocation: sourceLocation)
    }

    // MARK: Classes and properties

    @Test func dynamicPropertiesNotifyOnAssignment() {
        expectRun(
            Self.account + """
                let token = acct.observe(\\.balance, options: [.old, .new]) { account, change in
                    print(change.oldValue!, "->", change.newValue!)
                }
                acct.balance = 200
                token.invalidate()
                acct.balance = 300
                token.invalidate()
                """, out: "acct.balance → token {kind = 1; new = 200; old = 0}\n  0.0 -> 200.0\n")
    }

    @Test func objcButNotDynamicNotifiesOnlyThroughKVCAndWarnsOnce() {
        let result = run(
            Self.account + """
                acct.addObserver(acct, forKeyPath: "notDynamic", options: [.new], context: nil)
                acct.notDynamic = 1
                acct.notDynamic = 2
                acct.setValue(3, forKey: "notDynamic")
                """)
        #expect(result.status == 1)
        #expect(
            result.err == """
                t.kvo:9:1: warning: 'notDynamic' is not dynamic: this assignment bypasses KVO; declare it \
                '@objc dynamic var notDynamic'
                acct.notDynamic = 1
                ^
                t.kvo:11:14: note: the uncaught exception 'NSInternalInconsistencyException' was raised here
                acct.setValue(3, forKey: "notDynamic")
                             ^

                """)
        // NSObject's observeValue raises: Account does not override it.
        #expect(
            result.out.hasPrefix(
                "acct.notDynamic → acct {kind = 1; new = 3}\n*** Terminating app due to uncaught "
                    + "exception 'NSInternalInconsistencyException', reason: '<main.Account: acct>: An "))
    }

    @Test func assignmentsWithoutObserversAreNotWarnedAbout() {
        expectRun(Self.account + "acct.notDynamic = 1\nprint(acct.notDynamic)", out: "1\n")
    }

    @Test func plainVarIsInvisibleToKVC() {
        expectRun(
            Self.account + "print(acct.value(forKey: \"plain\"))", status: 1,
            out: "*** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: "
                + "'[<main.Account acct> valueForUndefinedKey:]: this class is not key value coding-compliant "
                + "for the key plain.'\n",
            err: """
                t.kvo:8:6: note: the uncaught exception 'NSUnknownKeyException' was raised here
                print(acct.value(forKey: "plain"))
                     ^

                """)
    }

    @Test func observingAPlainVarTrapsAsSwiftDoes() {
        let result = run(Self.account + "let t = acct.observe(\\.plain) { a, c in print(c) }")
        #expect(result.status == 1)
        #expect(
            result.err.contains(
                "warning: passing reference to non-'@objc dynamic' property 'plain' to KVO method "
                    + "'observe(_:options:changeHandler:)' may lead to unexpected behavior or runtime trap"))
        #expect(result.err.contains("error: Fatal error: Could not extract a String from KeyPath \\Account.plain"))
    }

    @Test func objcMembersMakesEveryPropertyObjCButNotDynamic() {
        expectRun(
            """
            import Foundation
            @objcMembers class Person: NSObject {
                var name: String = ""
                dynamic var age: Int = 0
            }
            let p = Person()
            let t = p.observe(\\.age, options: [.new]) { person, change in print(change.newValue) }
            p.age = 3
            print(p.value(forKey: "name"))
            """, out: "p.age → t {kind = 1; new = 3}\n  Optional(3)\nOptional()\n")
    }

    @Test func withoutTheImportEveryVarIsDynamicAsBefore() {
        expectRun(
            """
            class Account { var balance: Double = 0 }
            let acct = Account()
            let token = acct.observe(\\.balance, options: [.new]) { a, change in print(change.newValue) }
            acct.balance = 2
            print(acct)
            """, out: "acct.balance → token {kind = 1; new = 2}\n  2\n<Account: acct>\n")
    }

    @Test func swiftClassesPrintTheirObjectiveCName() {
        expectRun(
            Self.account + "print(acct)\nprint(type(of: acct))\nprint(acct.className)",
            out: "<main.Account: acct>\nAccount\nmain.Account\n")
    }

    @Test func kvcOnAClassThatIsNotAnNSObjectIsACheckError() {
        let result = check(
            "import Foundation\nclass Box { @objc dynamic var n: Int = 0 }\nlet b = Box()\n"
                + "b.setValue(1, forKey: \"n\")")
        #expect(result.status == 2)
        #expect(result.err.contains("'setValue' is NSObject's: declare 'class Box: NSObject' to use KVC and KVO on it"))
    }

    @Test func willSetAndDidSetRunInsideTheChange() {
        expectRun(
            """
            import Foundation
            class Account: NSObject {
                @objc dynamic var balance: Double = 0 {
                    willSet { print("willSet", balance, "->", newValue) }
                    didSet { print("didSet", oldValue, "->", balance) }
                }
            }
            let acct = Account()
            let token = acct.observe(\\.balance, options: [.prior, .new]) { a, change in print("isPrior", change.isPrior) }
            acct.balance = 5
            """,
            out: """
                acct.balance → token {kind = 1; notificationIsPrior = 1}
                  isPrior true
                willSet 0.0 -> 5.0
                didSet 0.0 -> 5.0
                acct.balance → token {kind = 1; new = 5}
                  isPrior false

                """)
    }

    @Test func initRunsForTheClassesThatDeclareOne() {
        expectRun(
            """
            import Foundation
            class Account: NSObject {
                @objc dynamic var owner: String
                init(owner: String) {
                    self.owner = owner
                    super.init()
                }
            }
            let acct = Account(owner: "Ann")
            print(acct.owner)
            """, out: "Ann\n")
    }

    // MARK: observe

    @Test func printingTheChangeShowsSwiftsStruct() {
        expectRun(
            Self.account + """
                let token = acct.observe(\\.balance, options: [.old, .new]) { account, change in
                    print(change)
                    print(change.newValue, change.indexes)
                }
                acct.balance = 200
                """,
            out: """
                acct.balance → token {kind = 1; new = 200; old = 0}
                  NSKeyValueObservedChange<Double>(kind: __C.NSKeyValueChange, newValue: Optional(200.0), \
                oldValue: Optional(0.0), indexes: nil, isPrior: false)
                  Optional(200.0) nil

                """)
    }

    @Test func initialRunsBeforeObserveReturnsWithTheTokensName() {
        expectRun(
            Self.account + """
                let token = acct.observe(\\.balance, options: [.initial, .new]) { account, change in
                    print("initial", change.newValue!)
                }
                print("returned")
                """, out: "acct.balance → token {kind = 1; new = 0}\n  initial 0.0\nreturned\n")
    }

    @Test func aDiscardedTokenEndsAtOnce() {
        let result = run(
            Self.account + """
                _ = acct.observe(\\.balance, options: [.initial]) { a, c in print("initial") }
                acct.observe(\\.balance) { a, c in print("never") }
                acct.balance = 1
                print(acct.observationInfo)
                """)
        #expect(result.out == "acct.balance → NSKeyValueObservation#1 {kind = 1}\n  initial\nnil\n")
        #expect(
            result.err.contains(
                "warning: result of call to 'observe(_:options:changeHandler:)' is unused; "
                    + "the observation ends at once"))
    }

    @Test func releasingTheObservedObjectEndsTheObservation() {
        expectRun(
            Self.account + """
                let token = acct.observe(\\.balance) { a, c in print("never") }
                release(acct)
                token.invalidate()
                print("done")
                """, out: "done\n")
    }

    @Test func aTokenHeldInALocalEndsWithItsScope() {
        expectRun(
            Self.account + """
                func watch() {
                    let token = acct.observe(\\.balance) { a, c in print("inside") }
                    acct.balance = 1
                }
                watch()
                acct.balance = 2
                """, out: "acct.balance → NSKeyValueObservation#1 {kind = 1}\n  inside\n")
    }

    @Test func aTokenHeldInAPropertyEndsWhenOverwritten() {
        expectRun(
            Self.account + """
                class Watcher: NSObject {
                    var token: NSKeyValueObservation?
                    func start() { token = acct.observe(\\.balance) { a, c in print("seen") } }
                }
                let w = Watcher()
                w.start()
                acct.balance = 1
                w.token = nil
                acct.balance = 2
                """, out: "acct.balance → NSKeyValueObservation#1 {kind = 1}\n  seen\n")
    }

    /// SPEC §11.0: releasing an object ends the tokens held in its properties
    /// (its deinit releases them, and a token's deinit invalidates it
    /// silently), also those held in an array property. Issue 27's
    /// regression: the change reached the token and then stopped the run with
    /// "message sent to deallocated instance <main.Monitor: monitor>".
    @Test func releasingTheHolderEndsTheTokensInItsProperties() {
        expectRun(
            Self.account + """
                class Monitor: NSObject {
                    var token: NSKeyValueObservation?
                    var more: [NSKeyValueObservation] = []
                    func start() {
                        token = acct.observe(\\.balance) { a, c in print("monitor sees", a.balance) }
                        more.append(acct.observe(\\.balance) { a, c in print("more sees", a.balance) })
                    }
                }
                let monitor = Monitor()
                monitor.start()
                acct.balance = 1
                release(monitor)
                acct.balance = 2
                print(acct.observationInfo)
                print("done")
                """,
            out: """
                acct.balance → NSKeyValueObservation#2 {kind = 1}
                  more sees 1.0
                acct.balance → NSKeyValueObservation#1 {kind = 1}
                  monitor sees 1.0
                nil
                done

                """)
    }

    @Test func keyPathsThroughRelationshipsAndOptionals() {
        expectRun(
            """
            import Foundation
            class Account: NSObject { @objc dynamic var balance: Double = 0 }
            class Person: NSObject { @objc dynamic var account: Account? }
            let p = Person()
            let a = Account()
            p.account = a
            let token = p.observe(\\.account?.balance, options: [.new]) { person, change in print(change) }
            a.balance = 7
            """,
            out: """
                p.account.balance → token {kind = 1; new = 7}
                  NSKeyValueObservedChange<Optional<Double>>(kind: __C.NSKeyValueChange, \
                newValue: Optional(Optional(7.0)), oldValue: nil, indexes: nil, isPrior: false)

                """)
    }

    // MARK: The Objective-C API spelled as in Swift

    @Test func observeValueOverrideWithContextsAndOptionals() {
        expectRun(
            """
            import Foundation
            private var myContext = 0
            class Account: NSObject { @objc dynamic var balance: Double = 0 }
            class Person: NSObject {
                override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                                           change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
                    guard context == &myContext else {
                        super.observeValue(forKeyPath: keyPath, of: object, change: change, context: context)
                        return
                    }
                    if let newValue = change?[.newKey] as? Double {
                        print("new", newValue)
                    }
                    print(change?[.oldKey] as? Int ?? -1, change?[.kindKey])
                    print(change)
                }
            }
            let acct = Account()
            let alice = Person()
            acct.addObserver(alice, forKeyPath: #keyPath(Account.balance), options: [.new, .old], context: &myContext)
            acct.balance = 200
            """,
            out: """
                acct.balance → alice {kind = 1; new = 200; old = 0} context: myContext
                  new 200.0
                  0 Optional(1)
                  Optional([__C.NSKeyValueChangeKey(_rawValue: kind): 1, __C.NSKeyValueChangeKey(_rawValue: new): 200, \
                __C.NSKeyValueChangeKey(_rawValue: old): 0])

                """)
    }

    @Test func optionsSpelledWithTheirType() {
        expectRun(
            Self.account + """
                class Watcher: NSObject {
                    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {}
                }
                let w = Watcher()
                acct.addObserver(w, forKeyPath: "balance", options: NSKeyValueObservingOptions.new, context: nil)
                acct.balance = 1
                """, out: "acct.balance → w {kind = 1; new = 1}\n")
    }

    @Test func castsAndForcedUnwrapping() {
        expectRun(
            Self.account + """
                acct.balance = 2
                print(acct.value(forKey: "balance"), acct.value(forKey: "balance") as? Double)
                print(acct.value(forKey: "balance") as? String ?? "none")
                let n = acct.value(forKey: "balance") as! Int
                print(n + 1)
                let s = acct.value(forKey: "balance") as! String
                """, status: 1, out: "Optional(2) Optional(2.0)\nnone\n3\n",
            err: "t.kvo:13:1: error: Fatal error: Could not cast value of type 'Double' to 'String'\n"
                + "let s = acct.value(forKey: \"balance\") as! String\n^\n")
    }

    // MARK: The isa-swizzle

    @Test func objectGetClassShowsTheGeneratedSubclassWhileObserved() {
        expectRun(
            Self.account + """
                class Watcher: NSObject {
                    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {}
                }
                let w = Watcher()
                print(NSStringFromClass(object_getClass(acct)))
                acct.addObserver(w, forKeyPath: "balance", options: [], context: nil)
                print(NSStringFromClass(object_getClass(acct)), type(of: acct), NSStringFromClass(type(of: acct)))
                acct.removeObserver(w, forKeyPath: "balance")
                print(NSStringFromClass(object_getClass(acct)))
                acct.addObserver(w, forKeyPath: "plain", options: [], context: nil)
                print(NSStringFromClass(object_getClass(acct)))
                """,
            out: "main.Account\n..NSKVONotifying_main.Account Account main.Account\nmain.Account\nmain.Account\n")
    }

    @Test func scenarioClassesHaveNoModulePrefix() {
        expectRun(
            """
            class Account { var balance: Double = 0 }
            class W { func observeValue(keyPath, object, change, context) {} }
            let acct = Account()
            let w = W()
            acct.addObserver(w, forKeyPath: "balance")
            print(NSStringFromClass(object_getClass(acct)))
            """, out: "NSKVONotifying_Account\n")
    }

    // MARK: Validation

    @Test func validationCallsValidateKeyAndThrowsNSError() {
        expectRun(
            """
            import Foundation
            class Contact: NSObject {
                @objc dynamic var name: String = ""
                func validateName(_ value: Any?) throws -> Any? {
                    guard let text = value as? String else { return "" }
                    if text.count > 8 { throw NSError(domain: "Contact", code: 1, description: "Name too long") }
                    return text.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
                }
            }
            let contact = Contact()
            print(contact.validateValue("  Ann ", forKey: "name") as? String ?? "?")
            do {
                try contact.validateValue("Bartholomew", forKey: "name")
            } catch {
                print(error.domain, error.code, error.localizedDescription)
            }
            print(contact.name.isEmpty)
            try contact.validateValue("Bartholomew", forKey: "name")
            """, status: 1,
            out: """
                ANN
                *** NSError (caught): Error Domain=Contact Code=1 "Name too long" UserInfo={NSLocalizedDescription=Name too long}
                Contact 1 Name too long
                true

                """,
            err: """
                t.kvo:18:26: error: Fatal error: Error raised at top level: Error Domain=Contact Code=1 "Name too long" \
                UserInfo={NSLocalizedDescription=Name too long}
                try contact.validateValue("Bartholomew", forKey: "name")
                                         ^

                """)
    }

    /// Swift's spelling: `userInfo: [NSLocalizedDescriptionKey: …]`, and
    /// Foundation's texts for an error without a description.
    @Test func nsErrorTakesUserInfoAsSwiftWritesIt() {
        expectRun(
            """
            import Foundation
            let described = NSError(domain: "Bank", code: 42, userInfo: [NSLocalizedDescriptionKey: "Too low"])
            print(described)
            print(described.localizedDescription, described.domain, described.code)
            let bare = NSError(domain: "d", code: 1, userInfo: nil)
            print(bare)
            print(bare.localizedDescription, bare.domain, bare.code)
            let empty = NSError(domain: "E", code: 2, userInfo: [:])
            print(empty.localizedDescription)
            do { throw bare } catch { print("caught", error.code) }
            """,
            out: """
                Error Domain=Bank Code=42 "Too low" UserInfo={NSLocalizedDescription=Too low}
                Too low Bank 42
                Error Domain=d Code=1 "(null)"
                The operation couldn\u{2019}t be completed. (d error 1.) d 1
                The operation couldn\u{2019}t be completed. (E error 2.)
                *** NSError (caught): Error Domain=d Code=1 "(null)"
                caught 1

                """)
    }

    @Test(arguments: [
        (
            "userInfo: [\"k\": 1]",
            "2:50: error: an NSError's userInfo takes only NSLocalizedDescriptionKey here"
        ),
        (
            "userInfo: [NSLocalizedDescriptionKey: \"a\", NSLocalizedDescriptionKey: \"b\"]",
            "2:82: error: NSLocalizedDescriptionKey is given twice"
        ),
        ("userInfo: 5", "2:49: error: an NSError's userInfo is written here as a literal"),
        ("userInfo: [NSLocalizedDescriptionKey: nope]", "cannot find 'nope' in scope"),
        ("userInfo: [NSLocalizedDescriptionKey \"a\"]", "expected ',' or ']' in the array literal"),
    ])
    func nsErrorUserInfoOtherwiseIsACheckError(userInfo: String, message: String) {
        let result = check("import Foundation\nlet e = NSError(domain: \"d\", code: 1, \(userInfo))\n")
        #expect(result.status == 2, "\(result)")
        #expect(result.err.contains(message), "\(result)")
    }

    // MARK: What stays unsupported

    @Test(arguments: [
        ("struct Point { var x = 0 }", "structs are not supported"),
        ("protocol P { }", "protocols are not supported"),
        ("let d: [String: Int] = [:]", "dictionary"),
        ("let d = [\"a\": 1]", "dictionary literals are not supported"),
        ("let d = [:]", "dictionary literals are not supported"),
        ("print([1: 2, 3: 4].count)", "dictionary literals are not supported"),
        ("let d = [1: 2, 3]", "expected ':' between a key and its value in the dictionary literal"),
        ("class Box<T> { }", "generics are not supported"),
        ("let a: Array<Int> = [1]\nlet f = { print(1) }", "closures are only supported as the handler of 'observe"),
        ("let x = \\.balance", "a key path like"),
        ("enum E { case a }", "enums are not supported"),
    ])
    func unsupportedSwiftNamesTheConstruct(source: String, message: String) {
        let result = check("import Foundation\n" + source)
        #expect(result.status == 2, "\(result)")
        #expect(result.err.contains(message), "\(result)")
        #expect(!result.err.contains("SPEC") && !result.err.contains("level"))
        #expect(!result.err.contains("consecutive statements"))
    }

    // MARK: Deallocation and JSON

    @Test func legacyDeallocRaisesWithTheObservationInfo() {
        var options = RunOptions()
        options.legacyDealloc = true
        let source =
            Self.account + """
                let token = acct.observe(\\.balance) { a, c in }
                release(acct)
                """
        let result = run(source, options: options)
        #expect(result.status == 1)
        #expect(
            result.out == "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', "
                + "reason: 'An instance acct of class main.Account was deallocated while key value observers were "
                + "still registered with it. Current observation info: <NSKeyValueObservationInfo acct> (\n"
                + "<NSKeyValueObservance acct[0]: Observer: token, Key path: balance, Options: <New: NO, Old: NO, "
                + "Prior: NO> Context: 0x0, Property: Account.balance>\n)'\n")
        // By default the observers go silently (macOS 10.13 and later).
        #expect(run(source).status == 0)
    }

    @Test func jsonNamesTheObjectiveCClassAndReportsWarningsAsEvents() {
        let result = run(
            Self.account + """
                acct.addObserver(acct, forKeyPath: "notDynamic", options: [.new], context: nil)
                acct.notDynamic = 1
                print(acct)
                """, format: .json)
        #expect(result.out.contains(#""event":"warning""#), "\(result)")
        #expect(result.out.contains("<main.Account: acct>"))
    }

    @Test func aTokenTheHandlerSeesIsTheBindingsName() {
        expectRun(
            Self.account + """
                let token = acct.observe(\\.balance, options: [.initial]) { account, change in print(account) }
                """, out: "acct.balance → token {kind = 1}\n  <main.Account: acct>\n")
    }
}
