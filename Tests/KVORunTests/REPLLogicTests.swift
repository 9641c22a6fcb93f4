import _KVOTestSupport
import Foundation
import KVOOutput
import KVOScript
import RewriterProtocol
@testable import KVORun
import Testing

/// Lines typed into the REPL, one by one, as a person would; what it remembers
/// for history is kept.
struct FakeInput: LineInput {
    var lines: [String]
    var prompts: [String] = []
    var remembered: [String] = []

    init(_ lines: [String]) { self.lines = lines }

    mutating func readLine(prompt: String) -> String? {
        prompts.append(prompt)
        return lines.isEmpty ? nil : lines.removeFirst()
    }

    mutating func remember(_ entry: String) { remembered.append(entry) }
}

/// What a REPL session printed: the REPL's own messages and echoes, and the
/// session's events (stdout) and diagnostics (stderr).
struct REPLRun {
    var said: String
    var out: String
    var err: String
    var input: FakeInput
    var transcript: [String]
}

final class TextBox: @unchecked Sendable {
    var text = ""
}

/// Runs the REPL over `lines` in memory.
func runREPL(_ lines: [String], options: RunOptions = RunOptions()) -> REPLRun {
    onLargeStack {
        let (session, out, err) = capturingSession(options)
        let said = TextBox()
        var repl = REPL(session: session, input: FakeInput(lines)) { said.text += $0 }
        _ = repl.run()
        session.output.flush()
        // The banner is the same every time: leave it out.
        var text = said.text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().joined()
        // Ctrl-D (the end of the lines) ends the prompt's line.
        if text.hasSuffix("\n") { text.removeLast() }
        return REPLRun(
            said: text, out: out.capturedText, err: err.capturedText, input: repl.input,
            transcript: repl.transcript)
    }
}

@Suite struct REPLLogicTests {
    let classes = "class Account { var balance: Int = 0 }"

    // MARK: All or nothing

    @Test func aRejectedLetKeepsTheEarlierBinding() {
        let run = runREPL([classes, "let b = Account()", "let b = Acount()", "print(b)"])
        #expect(run.err.contains("'Acount'"))
        #expect(run.out == "<Account: b>\n")
    }

    @Test func aLetWhoseInitializerFailedBindsNothing() {
        let run = runREPL(["let d = 1 / 0", "print(d)"])
        #expect(run.err.contains("division by zero"))
        #expect(run.err.contains("cannot find 'd' in scope"))
        #expect(run.out == "")
    }

    @Test func aFailedRedeclarationLeavesTheOldValue() {
        let run = runREPL(["let d = 5", "let d = 1 / 0", "print(d)"])
        #expect(run.out == "5\n")
    }

    @Test func statementsBeforeAFailureKeepTheirEffects() {
        let run = runREPL([
            classes, "let a = Account()", "a.balance = 3; let x = 1 / 0; a.balance = 9", "print(a.balance)",
            "print(x)",
        ])
        #expect(run.out == "3\n")
        #expect(run.err.contains("cannot find 'x' in scope"))
    }

    @Test func anExceptionStopsTheEntryButKeepsWhatCameBefore() {
        let run = runREPL([
            classes, "let a = Account()",
            "let v = 1; a.setValue(1, forKey: \"nope\"); let w = 2", "print(v)", "print(w)",
        ])
        #expect(
            run.out.hasPrefix("*** Entry stopped by uncaught exception 'NSUnknownKeyException', reason: '[<Account a> ")
        )
        #expect(!run.out.contains("Terminating"))
        #expect(run.out.hasSuffix("1\n"))
        #expect(run.err.contains("cannot find 'w' in scope"))
    }

    @Test func aClassWithABrokenMethodIsNotDeclared() {
        let run = runREPL(["class A { var n: Int = 0\n func f() { print(zz) } }", "let a = A()"])
        #expect(run.err.contains("cannot find 'zz' in scope"))
        #expect(run.err.contains("cannot find 'A' in scope"))
    }

    @Test func aFailedLoadChangesNothing() throws {
        let folder = try Folder()
        let file = try folder.write("bad.kvo", "let b = 5\nlet c = Nope()\n")
        let run = runREPL([classes, "let a = Account()", ":load \(file)", ":objects", "print(b)"])
        #expect(run.said.contains("a: <Account: a>"))
        #expect(run.err.contains("cannot find 'b' in scope"))
    }

    @Test func aRuntimeErrorInAnEarlierEntrysFunctionPointsAtTheCall() {
        let run = runREPL(["func f() { let z = 1 / 0 }", "print(1); f()"])
        #expect(run.err.contains("<repl>:1:11: error: division by zero (in code declared by an earlier entry)"))
    }

    @Test func aRunawayNotificationLoopNamesItsKeysAndItsStatement() {
        let run = runREPL([
            """
            class A {
                var n: Int = 0
                var m: Int = 0
                func observeValue(keyPath, object, change, context) {
                    if keyPath == "n" { m = m + 1 } else { n = n + 1 }
                }
            }
            """, "let a = A()", "a.addObserver(a, forKeyPath: \"n\"); a.addObserver(a, forKeyPath: \"m\")",
            ":set max-depth 40", "print(0); a.n = 1", "print(a.n > 0)",
        ])
        #expect(
            run.err.hasPrefix(
                "<repl>:1:11: error: notifications nested deeper than the maximum depth (40); "
                    + "a notification loop: "), "\(run.err)")
        #expect(run.err.contains("a.m → a.n repeats") || run.err.contains("a.n → a.m repeats"), "\(run.err)")
        #expect(run.err.contains("raise it with :set max-depth N"))
        #expect(run.out.hasSuffix("true\n"))
        // The indentation of the nested notifications stays bounded.
        #expect(run.out.split(separator: "\n").allSatisfy { $0.count < 300 })
    }

    /// At the default depth (1000) a loop prints its first 100 levels, then one
    /// line counting the rest, not a thousand ever more indented lines.
    @Test func aRunawayLoopAtTheDefaultDepthSaysHowManyLinesWereCut() {
        let run = runREPL([
            "class C { var n: Int = 0\n func observeValue(keyPath, object, change, context) { n = n + 1 } }",
            "let c = C()", "c.addObserver(c, forKeyPath: \"n\")", "c.n = 1",
        ])
        let lines = run.out.split(separator: "\n").map(String.init)
        let cut =
            String(repeating: "  ", count: 100)
            + "… 900 lines nested deeper than 100 handlers not shown (--format json shows every event)"
        #expect(lines.count == 102, "\(lines.count) lines")
        #expect(lines.last == cut)
        #expect(run.out.utf8.count < 40_000)
        #expect(run.err.hasPrefix("<repl>:1:1: error: notifications nested deeper than the maximum depth (1000); "))
        #expect(run.err.contains("a notification loop: c.n repeats"))
    }

    // MARK: Echo

    @Test func expressionValuesEcho() {
        let run = runREPL([
            classes, "let acct = Account()", "1 + 2", "acct", "\"hi\"", "print(4)",
            "func f() { }", "f()", "acct.balance",
        ])
        #expect(run.said == "3\n<Account: acct>\nhi\n0\n")
        #expect(run.out == "4\n")
    }

    // MARK: Continuation

    @Test func aTrailingOperatorContinues() {
        let run = runREPL(["let x = 1 +", "2", "x"])
        #expect(run.said == "3\n")
        #expect(run.input.prompts.prefix(2) == ["kvo> ", "...> "])
        #expect(run.input.remembered.first == "let x = 1 +\n2")
    }

    @Test func aTrailingCommaContinues() {
        let run = runREPL(["print(1,", "2)"])
        #expect(run.out == "1 2\n")
    }

    @Test func elseOnTheNextLineContinuesAnIf() {
        let run = runREPL(["if 1 > 2 {", "print(\"big\")", "}", "else {", "print(\"small\")", "}", ""])
        #expect(run.out == "small\n")
        #expect(run.err == "")
    }

    @Test func catchOnTheNextLineContinuesADo() {
        let run = runREPL([
            classes, "let a = Account()", "do { a.setValue(1, forKey: \"q\") }",
            "catch { print(\"caught\") }", "",
        ])
        #expect(run.out.hasSuffix("caught\n"))
        #expect(run.err == "")
    }

    @Test func aLineAfterAnIfThatIsNotElseIsTheNextEntry() {
        let run = runREPL(["if true { print(1) }", "print(2)"])
        #expect(run.out == "1\n2\n")
        #expect(run.input.remembered == ["if true { print(1) }", "print(2)"])
    }

    @Test func anUnterminatedStringIsOneError() {
        let run = runREPL(["print(\"abc", "print(2)"])
        #expect(run.err.components(separatedBy: "error:").count == 2)
        #expect(run.out == "2\n")
    }

    @Test func aMultiLineEntryIsOneHistoryEntry() {
        let run = runREPL(["class A {", "var n: Int = 0", "}", "print(1)"])
        #expect(run.input.remembered == ["class A {\nvar n: Int = 0\n}", "print(1)"])
    }

    // MARK: Meta-commands

    @Test func bareExitQuitAndHelpSayWhatToType() {
        let run = runREPL(["exit", "quit", "help"])
        #expect(
            run.said == "type :quit (or press Ctrl-D) to leave\ntype :quit (or press Ctrl-D) to leave\n"
                + "type :help for the list of commands\n")
        #expect(run.err == "")
    }

    @Test func aVariableNamedHelpIsStillAVariable() {
        let run = runREPL(["let help = 3", "help"])
        #expect(run.said == "3\n")
    }

    @Test func setMaxDepthChangesTheLimitAndErrorsAdviseSet() {
        let run = runREPL(["func f(n) { f(n) }", ":set max-depth 50", "f(1)"])
        #expect(run.said.contains("max-depth is now 50"))
        #expect(run.err.contains("(50)"))
        #expect(run.err.contains(":set max-depth N"))
        #expect(!run.err.contains("--max-depth"))
    }

    @Test func setMaxStepsStopsALoop() {
        let run = runREPL([":set max-steps 1000", "var i = 0", "while true { i += 1 }", "print(i > 0)"])
        #expect(run.err.contains(":set max-steps N"))
        #expect(run.out == "true\n")
    }

    @Test func setRejectsWhatItDoesNotKnow() {
        let run = runREPL([":set max-depth", ":set speed 3", ":set max-steps -1"])
        #expect(run.said.components(separatedBy: "as in ':set max-depth 2000'").count == 4)
    }

    @Test func quitEndsTheSession() {
        let run = runREPL([":quit", "print(1)"])
        #expect(run.out == "")
    }

    @Test func saveWritesTheAcceptedEntries() throws {
        let folder = try Folder()
        let path = folder.url.appendingPathComponent("s.kvo").path
        let run = runREPL([
            classes, "let a = Account()", "let b = Acount()", "a.balance = 2; let x = 1 / 0", "1 + 1",
            ":save \(path)",
        ])
        #expect(run.said.contains("saved 4 entries to \(path)"))
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!saved.contains("Acount"))
        #expect(saved.contains("a.balance = 2\n// (stopped by a runtime error in the session)\n// let x = 1 / 0"))
        let replay = _KVOTestSupport.run(saved)
        #expect(replay.status == 0)
    }

    /// Issue 29 (§10.1): a session that declared a class, a function and a
    /// context again saves a file that checks, and runs printing what the
    /// session printed: the old object keeps its class.
    @Test func aSavedSessionWithRedeclarationsRunsAsTheSessionDid() throws {
        let folder = try Folder()
        let path = folder.url.appendingPathComponent("s.kvo").path
        let lines = [
            "class Account { var balance: Double = 0 }", "let old = Account(balance: 1)",
            "func f() { print(\"first f\") }", "context C", "f()",
            "class Account { var owner: String = \"\"; var balance: Double = 5 }",
            "func f() { print(\"second f\") }", "context C",
            "let new = Account(owner: \"ann\")", "print(new.owner, new.balance, old.balance)", "f()",
            "print(old, old.value(forKey: \"balance\"))",
        ]
        let session = runREPL(lines + [":save \(path)"])
        #expect(session.said.contains("saved 12 entries to \(path)"), "\(session.said)")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.components(separatedBy: Session.entryMarker).count == 4, "\(saved)")
        #expect(_KVOTestSupport.check(saved).status == 0, "\(_KVOTestSupport.check(saved))")
        let replay = _KVOTestSupport.run(saved)
        #expect(replay.out == session.out, "\(replay)")
        #expect(replay.out.contains("first f\nann 5 1\nsecond f\n<Account: old> 1\n"), "\(replay)")
        // Loaded into a fresh session it replays too, and saves again the same.
        let again = folder.url.appendingPathComponent("again.kvo").path
        let loaded = runREPL([":load \(path)", ":save \(again)"])
        #expect(loaded.out == session.out, "\(loaded.out)")
        #expect(try String(contentsOfFile: again, encoding: .utf8) == saved)
    }

    /// Without the marker a second declaration stays an error, in a file as
    /// in one entry; an error in a later entry of a saved file names the
    /// file's own line.
    @Test func aRedeclarationInAFileWithoutTheMarkerIsStillAnError() {
        let twice = "class A { }\nclass A { }\n"
        #expect(_KVOTestSupport.check(twice).status == 2)
        let marked = "class A { }\n\(Session.entryMarker)\nclass A { var x = 1 }\nlet a = A()\nprint(a.y)\n"
        let checked = _KVOTestSupport.check(marked)
        #expect(checked.status == 2)
        #expect(checked.err.contains("t.kvo:5:"), "\(checked)")
    }

    // MARK: Completion

    @Test func completionOffersFoundationMethodsWithLabels() {
        let (session, _, _) = capturingSession()
        _ = session.run("class Account { var balance: Int = 0 }\nlet acct = Account()", file: "t.kvo")
        let values = Completion.complete(before: "", word: "acct.val", session: session).candidates
        #expect(
            values == ["acct.validateValue(", "acct.value(forKey: ", "acct.value(forKeyPath: "]
                || values == ["acct.value(forKey: ", "acct.value(forKeyPath: "])
        let add = Completion.complete(before: "", word: "acct.addO", session: session).candidates
        #expect(add == ["acct.addObserver("])
        let properties = Completion.complete(before: "", word: "acct.b", session: session).candidates
        #expect(properties == ["acct.balance"])
    }

    @Test func completionOffersOptionsAfterADot() {
        let (session, _, _) = capturingSession()
        let result = Completion.complete(
            before: "acct.addObserver(p, forKeyPath: \"b\", options: [", word: ".ne",
            session: session)
        #expect(result.candidates == [".new"])
        #expect(
            Completion.complete(before: "x = ", word: ".in", session: session).candidates
                == [".initial", ".insertion", ".intersect"])
    }

    /// Issue 42: `o.observe(\\.ba` completes the key path, as a key string does.
    @Test func completionOffersASwiftKeyPathAfterBackslashDot() {
        let (session, _, _) = capturingSession()
        _ = session.run("class Account { var balance: Int = 0 }\nlet acct = Account()", file: "t.kvo")
        #expect(
            Completion.complete(before: "acct.observe(", word: "\\.ba", session: session).candidates == ["\\.balance"])
    }

    /// Issue 42: a Swift session completes from what its last kept run held
    /// (the runtime's objects and class tables) and what its entries declare
    /// (the rewriter's reading).
    @Test func swiftCompletionReadsTheSessionsSnapshot() {
        typealias State = ProgramChannel.REPLState
        var state = State()
        state.objects = [
            .init(name: "ann", className: "Person", description: "<main.Person: ann>", observances: 0),
            .init(name: "op", className: "Operation", description: "<NSOperation: op>", observances: 0),
        ]
        state.classes = [
            .init(
                name: "Person", superclass: "NSObject", declared: true,
                properties: [
                    .init(name: "name", type: "String", objc: true, dynamic: true),
                    .init(name: "account", type: "Account?", objc: true, dynamic: true),
                    .init(name: "cache", type: "Int", objc: false, dynamic: false),
                ]),
            .init(
                name: "Account", superclass: "NSObject", declared: true,
                properties: [.init(name: "balance", type: "Double", objc: true, dynamic: true)]),
            .init(
                name: "Operation", superclass: "NSObject", declared: false,
                properties: [
                    .init(name: "isFinished", type: "Bool", objc: true, dynamic: false),
                    .init(name: "finished", type: "Bool", objc: true, dynamic: false),
                ]),
            .init(name: "NSObject", superclass: nil, declared: false, properties: []),
        ]
        let declarations = REPLDeclarations(
            names: ["Account", "Person", "ann", "greeting", "op"], members: ["Person": ["greet(", "account", "name"]],
            superclasses: ["Person": "NSObject", "Account": "NSObject"], variableTypes: ["later": "Person"])
        let source = SwiftCompletion(snapshot: SwiftREPLSnapshot(state: state, declarations: declarations))
        func candidates(_ before: String, _ word: String) -> [String] {
            Completion.complete(before: before, word: word, source: source).candidates
        }
        #expect(candidates("", "ann.gr") == ["ann.greet("])
        #expect(candidates("", "ann.ca") == ["ann.cache"])
        #expect(candidates("", "ann.obs") == ["ann.observationInfo", "ann.observe(\\."])
        // A variable declared with a type of the program's, before any run made its object.
        #expect(candidates("", "later.na") == ["later.name"])
        // Foundation's table names `finished` beside `isFinished`; Swift code writes the second.
        #expect(candidates("", "op.fin") == [])
        #expect(candidates("", "op.isF") == ["op.isFinished"])
        #expect(candidates("", "gree") == ["greeting"])
        #expect(candidates("", "Pers") == ["Person"])
        // Keys KVO sees, through an optional to-one relationship.
        #expect(candidates("ann.observe(", "\\.a") == ["\\.account?."])
        #expect(candidates("ann.observe(", "\\.account?.b") == ["\\.account?.balance"])
        #expect(candidates("ann.observe(", "\\.c") == [], "not @objc: KVO cannot see it")
        #expect(candidates("ann.addObserver(ann, forKeyPath: \"", "account.") == ["account.balance"])
        #expect(candidates("ann.addObserver(ann, forKeyPath: \"", "a") == ["account."])
        #expect(candidates(":info ", "") == ["ann", "op"])
    }

    @Test func completionOffersFilesAfterLoadAndSave() {
        let (session, _, _) = capturingSession()
        #expect(Completion.complete(before: ":load ", word: "sc", session: session).files)
        #expect(Completion.complete(before: ":sa ", word: "", session: session).files)
        #expect(!Completion.complete(before: ":info ", word: "a", session: session).files)
        #expect(Completion.complete(before: "", word: ":se", session: session).candidates == [":set"])
    }
}
