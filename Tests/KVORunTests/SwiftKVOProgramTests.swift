import Foundation
import Testing
import _KVOTestSupport
@testable import KVORun

/// Swift's own KVO in a compiled program (SPEC §11.0–§11.4): `@objc
/// dynamic`, `observe` tokens, the Objective-C API as Swift spells it, the
/// isa-swizzle. These were the interpreted Swift subset's tests; each now
/// compiles its program with swiftc against kvo-run's runtime and runs it.
@Suite(.serialized) struct SwiftKVOProgramTests {
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
        _ source: String, status: Int32 = 0, _ text: String, settings: SwiftProgram.Settings = .init(),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let result = SwiftProgramTests.run(source, settings: settings)
        #expect(result.status == status, "\(result.text)", sourceLocation: sourceLocation)
        #expect(result.text == text, sourceLocation: sourceLocation)
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
                """, "acct.balance → token {kind = 1; new = 200; old = 0}\n  0.0 -> 200.0\n")
    }

    /// The observers a set notifies after a handler that set the property
    /// again (by assignment or by KVC) see the newer value, as the did
    /// phase reads it through the getter for each; handlers that set
    /// nothing leave the value read once (`KVORuntime.settersStarted`).
    @Test func observersAfterAHandlerThatSetsAgainSeeTheNewerValue() {
        expectRun(
            """
            import Foundation
            class Account: NSObject { @objc dynamic var balance: Int = 0 }
            let acct = Account()
            let first = acct.observe(\\.balance, options: [.old, .new]) { _, change in
                print("first", change.oldValue!, "->", change.newValue!)
            }
            let second = acct.observe(\\.balance, options: [.old, .new]) { account, change in
                print("second", change.oldValue!, "->", change.newValue!)
                if change.newValue == 1 { account.balance = 2 }
                if change.newValue == 3 { account.setValue(4, forKey: "balance") }
            }
            acct.balance = 1
            acct.balance = 3
            """,
            """
            acct.balance → second {kind = 1; new = 1; old = 0}
              second 0 -> 1
              acct.balance → second {kind = 1; new = 2; old = 1}
                second 1 -> 2
              acct.balance → first {kind = 1; new = 2; old = 1}
                first 1 -> 2
            acct.balance → first {kind = 1; new = 2; old = 0}
              first 0 -> 2
            acct.balance → second {kind = 1; new = 3; old = 2}
              second 2 -> 3
              acct.balance → second {kind = 1; new = 4; old = 3}
                second 3 -> 4
              acct.balance → first {kind = 1; new = 4; old = 3}
                first 3 -> 4
            acct.balance → first {kind = 1; new = 4; old = 2}
              first 2 -> 4

            """)
    }

    @Test func objcButNotDynamicNotifiesOnlyThroughKVCAndWarnsOnce() {
        let result = SwiftProgramTests.run(
            Self.account + """
                acct.addObserver(acct, forKeyPath: "notDynamic", options: [.new], context: nil)
                acct.notDynamic = 1
                acct.notDynamic = 2
                acct.setValue(3, forKey: "notDynamic")
                """)
        #expect(result.status == 1)
        #expect(
            result.text.hasPrefix(
                """
                program.swift:9:1: warning: 'notDynamic' is not dynamic: this assignment bypasses KVO; declare it \
                '@objc dynamic var notDynamic'
                acct.notDynamic = 1
                ^
                acct.notDynamic → acct {kind = 1; new = 3}
                *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: \
                '<main.Account: acct>: An -observeValueForKeyPath:ofObject:change:context: message was received \
                but not handled.
                """), "\(result.text)")
        // NSObject's observeValue raises: Account does not override it.
        #expect(
            result.text.hasSuffix(
                """
                program.swift:11:14: note: the uncaught exception 'NSInternalInconsistencyException' was raised here
                acct.setValue(3, forKey: "notDynamic")
                             ^

                """), "\(result.text)")
        #expect(!result.text.contains("program.swift:10:"), "warned once")
    }

    @Test func assignmentsWithoutObserversAreNotWarnedAbout() {
        expectRun(Self.account + "acct.notDynamic = 1\nprint(acct.notDynamic)", "1\n")
    }

    @Test func plainVarIsInvisibleToKVC() {
        expectRun(
            Self.account + "print(acct.value(forKey: \"plain\"))", status: 1,
            "*** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: "
                + "'[<main.Account acct> valueForUndefinedKey:]: this class is not key value coding-compliant "
                + "for the key plain.'\n"
                    + """
                    program.swift:8:17: note: the uncaught exception 'NSUnknownKeyException' was raised here
                    print(acct.value(forKey: "plain"))
                                    ^

                    """)
    }

    @Test func observingAPlainVarTrapsAsSwiftDoes() {
        let result = SwiftProgramTests.run(Self.account + "let t = acct.observe(\\.plain) { a, c in print(c) }")
        #expect(result.status == 1)
        #expect(
            result.text.contains(
                "warning: passing reference to non-'@objc dynamic' property 'plain' to KVO method "
                    + "'observe(_:options:changeHandler:)' may lead to unexpected behavior or runtime trap"))
        #expect(
            result.text.contains(
                "program.swift:8:1: error: Fatal error: Could not extract a String from KeyPath \\Account.plain"))
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
            print(p.value(forKey: "name") as? String == "")
            """, "p.age → t {kind = 1; new = 3}\n  Optional(3)\ntrue\n")
    }

    @Test func swiftClassesPrintTheirObjectiveCName() {
        expectRun(
            Self.account + "print(acct)\nprint(type(of: acct))\nprint(acct.className)",
            "<main.Account: acct>\nAccount\nmain.Account\n")
    }

    /// KVC and KVO are NSObject's: the compiler says so for another class.
    @Test func kvcOnAClassThatIsNotAnNSObjectIsACompileError() {
        let result = SwiftProgramTests.run(
            "import Foundation\nclass Box { @objc dynamic var n: Int = 0 }\nlet b = Box()\n"
                + "b.setValue(1, forKey: \"n\")", compileOnly: true)
        #expect(result.status == 2)
        #expect(result.text.contains("program.swift:4:3: error: value of type 'Box' has no member 'setValue'"))
        // Issue 40: and says what to do.
        #expect(
            result.text.contains(
                "program.swift:4:3: note: KVO and KVC need an object of a class that inherits from NSObject: declare 'Box' as 'class Box: NSObject'"
            ))
    }

    /// Swift's own test/Interpreter/SDK/KVO.swift calls `value(forKeyPath:)`
    /// on `object as AnyObject`: a Mac's dynamic lookup, which Linux's Swift
    /// lacks. The note says that and what to write, not that AnyObject is
    /// one of Foundation's classes.
    @Test func kvcThroughAnyObjectSaysToCastFirst() {
        let result = SwiftProgramTests.run(
            "import Foundation\nclass A: NSObject { @objc var n = 1 }\nlet o: Any = A()\n"
                + "print((o as AnyObject).value(forKey: \"n\") as Any)\n", compileOnly: true)
        #expect(result.status == 2)
        #expect(result.text.contains("error: value of type 'AnyObject' has no member 'value'"))
        #expect(
            result.text.contains(
                "note: a Mac finds 'value' on 'AnyObject' by Objective-C's dynamic lookup, which Swift on Linux does not have: cast to the class first, '(object as! NSObject).value(…)'"
            ), "\(result.text)")
        #expect(!result.text.contains("swift-corelibs-foundation's classes"))
    }

    /// Issue 41: a Swift program's trace written to a full disk failed
    /// silently, status 0; like a scenario's, the run now fails (status 1,
    /// "cannot write standard output" on standard error).
    @Test func aSwiftProgramsTraceToAFullDiskFailsTheRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Self.account + "let t = acct.observe(\\.balance) { _, _ in }\nacct.balance = 1\nprint(\"done\")\n"
        let path = directory.appendingPathComponent("program.swift").path
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        defer { close(full) }
        let status = SwiftProgram.run(
            source, display: "program.swift", path: path, settings: .init(), compileOnly: false, output: full)
        #expect(status == 1)
    }

    /// One of Foundation's classes kvo-run does not model: said so, not "make it an NSObject".
    @Test func kvoOnAnUnmodelledFoundationClassSaysItIsNotModelled() {
        let result = SwiftProgramTests.run(
            "import Foundation\nlet f = DateFormatter()\nlet t = f.observe(\\.dateFormat) { _, _ in }\n",
            compileOnly: true)
        #expect(result.status == 2)
        #expect(result.text.contains("error: value of type 'DateFormatter' has no member 'observe'"))
        #expect(
            result.text.contains(
                "note: 'DateFormatter' is one of swift-corelibs-foundation's classes, whose KVO and KVC kvo-run does not model"
            ))
    }

    /// SPEC §11.8: Swift's own printing of KVO's types is a Mac's, where
    /// Linux prints `\Model.<computed 0x… (String)>` and `KVOFoundation.`.
    @Test func keyPathsAndOptionsPrintAsOnAMac() {
        expectRun(
            """
            import Foundation
            class Model: NSObject { @objc dynamic var name = "" }
            print(\\Model.name, "\\(\\Model.name)")
            print([NSKeyValueObservingOptions.new, .old])
            print(NSKeyValueObservingOptions.initial)
            """,
            """
            \\Model.name \\Model.name
            [__C.NSKeyValueObservingOptions(rawValue: 1), __C.NSKeyValueObservingOptions(rawValue: 2)]
            NSKeyValueObservingOptions(rawValue: 4)

            """)
    }

    /// NSObject's class side answers KVC too: a library's
    /// `override class func setValue(_:forUndefinedKey:)` compiles and is
    /// called; without one, the class raises as an instance does.
    @Test func classSideKVCCanBeOverridden() {
        expectRun(
            """
            import Foundation
            class Model: NSObject {
                override class func setValue(_ value: Any?, forUndefinedKey key: String) {
                    print("class ignores", key)
                }
            }
            class Plain: NSObject {}
            Model.setValue(1, forKey: "version")
            print(Model.value(forKey: "nothing") as Any)
            """, status: 1,
            """
            class ignores version
            *** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: '[<main.Model (class)> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nothing.'
            program.swift:9:18: note: the uncaught exception 'NSUnknownKeyException' was raised here
            print(Model.value(forKey: "nothing") as Any)
                             ^

            """)
    }

    /// SPEC §11.1: a setter, willSet or didSet that posts the change by hand
    /// notifies; the not-dynamic warning (whose advice would post twice) is
    /// for an assignment that notified nobody.
    @Test func aSetterThatPostsByHandIsNotToldItBypassesKVO() {
        expectRun(
            """
            import Foundation
            final class Worker: NSObject {
                private var running = false
                @objc var isExecuting: Bool {
                    get { running }
                    set {
                        willChangeValue(forKey: "isExecuting")
                        running = newValue
                        didChangeValue(forKey: "isExecuting")
                    }
                }
                @objc var plain = 0
            }
            let w = Worker()
            let t = w.observe(\\.isExecuting, options: [.new]) { _, c in print(c.newValue!) }
            let u = w.observe(\\.plain, options: [.new]) { _, c in print(c.newValue!) }
            w.isExecuting = true
            w.plain = 1
            """,
            """
            program.swift:16:19: warning: passing reference to non-'@objc dynamic' property 'plain' to KVO method 'observe(_:options:changeHandler:)' may lead to unexpected behavior or runtime trap
            let u = w.observe(\\.plain, options: [.new]) { _, c in print(c.newValue!) }
                              ^~~~~~~
            w.isExecuting → t {kind = 1; new = 1}
              true
            program.swift:18:1: warning: 'plain' is not dynamic: this assignment bypasses KVO; declare it '@objc dynamic var plain'
            w.plain = 1
            ^

            """)
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
            """
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
            """, "Ann\n")
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
            """
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
                """, "acct.balance → token {kind = 1; new = 0}\n  initial 0.0\nreturned\n")
    }

    @Test func aDiscardedTokenEndsAtOnce() {
        let result = SwiftProgramTests.run(
            Self.account + """
                _ = acct.observe(\\.balance, options: [.initial]) { a, c in print("initial") }
                acct.observe(\\.balance) { a, c in print("never") }
                acct.balance = 1
                print(acct.observationInfo)
                """)
        #expect(result.status == 0)
        #expect(result.text.hasSuffix("acct.balance → NSKeyValueObservation#1 {kind = 1}\n  initial\nnil\n"))
        #expect(
            result.text.hasPrefix(
                "program.swift:9:5: warning: result of call to 'observe(_:options:changeHandler:)' is unused; "
                    + "the observation ends at once"), "\(result.text)")
    }

    @Test func releasingTheObservedObjectEndsTheObservation() {
        expectRun(
            Self.account + """
                let token = acct.observe(\\.balance) { a, c in print("never") }
                release(acct)
                token.invalidate()
                print("done")
                """, "done\n")
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
                """, "acct.balance → NSKeyValueObservation#1 {kind = 1}\n  inside\n")
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
                """, "acct.balance → NSKeyValueObservation#1 {kind = 1}\n  seen\n")
    }

    /// SPEC §11.0: `release(x)` ends the tokens held in x's properties (its
    /// deinit releases them, and a token's deinit invalidates it silently),
    /// also those held in an array property. Issue 27's regression, and the
    /// compiled runtime's until this test: the array's token outlived its holder.
    @Test func releasingTheHolderEndsTheTokensInItsProperties() {
        expectRun(
            Self.account + """
                class Monitor: NSObject {
                    var token: NSKeyValueObservation?
                    var more: [NSKeyValueObservation] = []
                    var others: Set<NSKeyValueObservation> = []
                    func start() {
                        token = acct.observe(\\.balance) { a, c in print("monitor sees", a.balance) }
                        more.append(acct.observe(\\.balance) { a, c in print("more sees", a.balance) })
                        others.insert(acct.observe(\\.balance) { a, c in print("others see", a.balance) })
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
            """
            acct.balance → NSKeyValueObservation#3 {kind = 1}
              others see 1.0
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
            """
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
            """
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
                """, "acct.balance → w {kind = 1; new = 1}\n")
    }

    /// A forced cast that fails is Swift's own trap, reported at its line.
    @Test func castsAndForcedUnwrapping() {
        let result = SwiftProgramTests.run(
            Self.account + """
                acct.balance = 2
                print(acct.value(forKey: "balance"), acct.value(forKey: "balance") as? Double)
                print(acct.value(forKey: "balance") as? String ?? "none")
                let n = acct.value(forKey: "balance") as! Int
                print(n + 1)
                let s = acct.value(forKey: "balance") as! String
                """)
        #expect(result.status == 1)
        #expect(result.text.hasPrefix("Optional(2) Optional(2.0)\nnone\n3\nCould not cast value of type "))
        #expect(
            result.text.hasSuffix(
                "program.swift:13:1: error: the program stopped: an abort (SIGABRT)\n"
                    + "let s = acct.value(forKey: \"balance\") as! String\n^\n"), "\(result.text)")
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
                print(NSStringFromClass(object_getClass(acct)!))
                acct.addObserver(w, forKeyPath: "balance", options: [], context: nil)
                print(NSStringFromClass(object_getClass(acct)!), type(of: acct), NSStringFromClass(type(of: acct)))
                acct.removeObserver(w, forKeyPath: "balance")
                print(NSStringFromClass(object_getClass(acct)!))
                acct.addObserver(w, forKeyPath: "plain", options: [], context: nil)
                print(NSStringFromClass(object_getClass(acct)!))
                """,
            "main.Account\n..NSKVONotifying_main.Account Account main.Account\nmain.Account\nmain.Account\n")
    }

    // MARK: Errors

    /// Swift's spelling: `userInfo: [NSLocalizedDescriptionKey: …]`, printed
    /// with Foundation's description as on a Mac.
    @Test func nsErrorTakesUserInfoAsSwiftWritesIt() {
        expectRun(
            """
            import Foundation
            let described = NSError(domain: "Bank", code: 42, userInfo: [NSLocalizedDescriptionKey: "Too low"])
            print(described)
            print(described.localizedDescription, described.domain, described.code)
            let bare = NSError(domain: "d", code: 1, userInfo: nil)
            print(bare)
            print(bare.domain, bare.code)
            do { throw bare } catch { print("caught", error.code) }
            """,
            """
            Error Domain=Bank Code=42 "Too low" UserInfo={NSLocalizedDescription=Too low}
            Too low Bank 42
            Error Domain=d Code=1 "(null)"
            d 1
            caught 1

            """)
    }

    // MARK: Deallocation and JSON

    @Test func legacyDeallocRaisesWithTheObservationInfo() {
        var settings = SwiftProgram.Settings()
        settings.legacyDealloc = true
        let source =
            Self.account + """
                let token = acct.observe(\\.balance) { a, c in }
                release(acct)
                """
        let result = SwiftProgramTests.run(source, settings: settings)
        #expect(result.status == 1)
        #expect(
            result.text.hasPrefix(
                "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', "
                    + "reason: 'An instance acct of class main.Account was deallocated while key value observers were "
                    + "still registered with it. Current observation info: <NSKeyValueObservationInfo acct> (\n"
                    + "<NSKeyValueObservance acct[0]: Observer: token, Key path: balance, Options: <New: NO, Old: NO, "
                    + "Prior: NO> Context: 0x0, Property: Account.balance>\n)'\n"), "\(result.text)")
        // By default the observers go silently (macOS 10.13 and later).
        #expect(SwiftProgramTests.run(source) == ("", 0))
    }

    @Test func jsonNamesTheObjectiveCClassAndReportsWarningsAsEvents() {
        var settings = SwiftProgram.Settings()
        settings.format = .json
        let result = SwiftProgramTests.run(
            Self.account + """
                acct.addObserver(acct, forKeyPath: "notDynamic", options: [.new], context: nil)
                acct.notDynamic = 1
                print(acct)
                """, settings: settings)
        #expect(result.text.contains(#""event":"warning""#), "\(result.text)")
        #expect(result.text.contains(#"{"event":"print","text":"<main.Account: acct>","depth":0}"#))
    }

    @Test func aTokenTheHandlerSeesIsTheBindingsName() {
        expectRun(
            Self.account + """
                let token = acct.observe(\\.balance, options: [.initial]) { account, change in print(account) }
                """, "acct.balance → token {kind = 1}\n  <main.Account: acct>\n")
    }
}
