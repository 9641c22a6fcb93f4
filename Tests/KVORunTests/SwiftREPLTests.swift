import Foundation
import Testing
import _KVOTestSupport

/// The REPL after `import Foundation` (SPEC §10.1, §11.0), in a real
/// pseudo-terminal with the real `swiftc`: each entry is compiled after the
/// ones before it and the whole program runs, showing only what the new
/// entry does. Entries are few and share sessions: each costs a compile.
@Suite(.serialized) struct SwiftREPLTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-swift-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A session past `import Foundation`; the first one may build the runtime (a minute or more).
    func start(_ arguments: [String] = []) throws -> Terminal {
        let terminal = try Terminal(
            arguments: arguments, environment: ["KVO_HISTORY": folder.appendingPathComponent("history").path])
        terminal.expect("kvo> ")
        terminal.clear()
        terminal.send("import Foundation\r")
        terminal.expect("\r\nkvo> ", timeout: 900)
        return terminal
    }

    /// Types `text` and returns all that was shown until the next prompt.
    @discardableResult
    func enter(
        _ terminal: Terminal, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        terminal.clear()
        terminal.send(text.replacingOccurrences(of: "\n", with: "\r") + "\r")
        terminal.expect("\r\nkvo> ", timeout: 120, sourceLocation: sourceLocation)
        // Past the echo of what was typed (its last line).
        let typedLast = text.split(separator: "\n").last.map(String.init) ?? text
        guard let echoed = terminal.transcript.range(of: typedLast + "\r\n") else { return terminal.transcript }
        return String(terminal.transcript[echoed.upperBound...]).replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test func eachEntryShowsOnlyWhatItDoesAndAFailedOneIsNotKept() throws {
        let terminal = try start()
        #expect(enter(terminal, "class Account: NSObject { @objc dynamic var balance: Double = 0 }") == "kvo> ")
        enter(terminal, "let acct = Account()")
        enter(
            terminal,
            "let token = acct.observe(\\.balance, options: [.old, .new]) { _, change in print(\"handler\", change.newValue!) }"
        )
        #expect(enter(terminal, "print(\"once\")") == "once\nkvo> ")
        // The earlier entries ran again, their output kept out.
        #expect(
            enter(terminal, "acct.balance = 200")
                == "acct.balance → token {kind = 1; new = 200; old = 0}\n  handler 200.0\nkvo> ")
        // Echoes: an expression's value as print shows it; a call that returns nothing, nothing.
        #expect(enter(terminal, "acct.balance + 1") == "201.0\nkvo> ")
        #expect(enter(terminal, "print(\"x\")") == "x\nkvo> ")
        #expect(enter(terminal, "[\"a\": 1][\"b\"]") == "nil\nkvo> ")

        // A compile error at the entry's own line and column; nothing changes.
        #expect(
            enter(terminal, "acct.balance = \"a lot\"")
                == "<repl>:1:16: error: cannot assign value of type 'String' to type 'Double'\nacct.balance = \"a lot\"\n               ^\nkvo> "
        )

        // An uncaught exception ends the program; the entry is not kept, and is not run again.
        let raised = enter(terminal, "print(\"before\"); acct.setValue(1, forKey: \"nope\")")
        #expect(
            raised.hasPrefix(
                "before\n*** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: '[<main.Account acct> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key nope.'\n"
            ), "\(raised)")
        #expect(
            raised.contains("<repl>:1:1: note: the uncaught exception 'NSUnknownKeyException' was raised here\n"),
            "\(raised)")
        #expect(
            raised.hasSuffix(
                "entry not kept: its run stopped before its end; the session goes on as it was before it\nkvo> "),
            "\(raised)")
        #expect(enter(terminal, "acct.balance") == "200.0\nkvo> ")

        // Code an earlier entry declared names that entry's own line.
        enter(terminal, "func poke() {\n    print(\"poking\")\n    acct.setValue(1, forKey: \"nope\")\n}")
        let poked = enter(terminal, "poke()")
        #expect(poked.hasPrefix("poking\n"), "\(poked)")
        #expect(
            poked.contains(
                "<repl entry 11>:3:18: note: the uncaught exception 'NSUnknownKeyException' was raised here\n    acct.setValue(1, forKey: \"nope\")\n                 ^\n"
            ), "\(poked)")

        // A trap is reported at the statement, and not kept either.
        let trapped = enter(terminal, "let numbers = [1]; numbers[3]")
        #expect(trapped.contains("Fatal error: Index out of range"), "\(trapped)")
        #expect(
            trapped.contains("<repl>:1:1: error: the program stopped: a Swift runtime trap (signal 4)"), "\(trapped)")
        #expect(
            trapped.hasSuffix(
                "entry not kept: its run stopped before its end; the session goes on as it was before it\nkvo> "))
        #expect(enter(terminal, "let numbers = [2]; numbers[0]") == "2\nkvo> ", "the failed binding is gone")

        // Ctrl-C stops a runaway entry, which is not kept.
        terminal.clear()
        terminal.send("print(\"spinning\"); while true {}\r")
        terminal.expect("spinning\r\n", timeout: 120)
        terminal.send("\u{03}")
        terminal.expect("\r\nkvo> ")
        #expect(
            terminal.transcript.contains("error: the program stopped: an interrupt (Ctrl-C)"), "\(terminal.transcript)")
        #expect(terminal.transcript.contains("entry not kept"))
        #expect(enter(terminal, "print(\"after\")") == "after\nkvo> ")

        // :info through the program.
        let info = enter(terminal, ":info acct")
        #expect(
            info.contains(
                "<NSKeyValueObservance acct[0]: Observer: token, Key path: balance, Options: <New: YES, Old: YES, Prior: NO>"
            ), "\(info)")
        #expect(
            enter(terminal, ":info nobody").hasPrefix(
                ":info takes a top-level variable that holds an NSObject, and 'nobody' is not one (cannot find 'nobody' in scope)"
            ))

        // :save writes the accepted entries: a Swift program that prints what the session printed.
        let file = folder.appendingPathComponent("session.kvo").path
        #expect(enter(terminal, ":save \(file)").hasPrefix("saved 13 entries to \(file)"))
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved.hasPrefix("import Foundation\nclass Account: NSObject"))
        #expect(
            !saved.contains("print(\"before\")") && !saved.contains("numbers[3]"), "only accepted entries: \(saved)")
        let replay = try CLI.run([file])
        #expect(replay.status == 0, "\(replay)")
        #expect(
            replay.outLines == [
                "once", "acct.balance → token {kind = 1; new = 200; old = 0}", "  handler 200.0", "x", "after",
            ], "\(replay)")
    }

    @Test func aDeclarationAgainReplacesTheEarlierOne() throws {
        let terminal = try start()
        enter(terminal, "class Tag: NSObject { @objc dynamic var n = 1 }")
        enter(terminal, "func label() -> String { \"one\" }")
        #expect(enter(terminal, "class Tag: NSObject { @objc dynamic var n = 2 }; Tag().n") == "2\nkvo> ")
        #expect(enter(terminal, "func label() -> String { \"two\" }; label()") == "two\nkvo> ")
        // A top-level variable cannot be declared twice: Swift's own error.
        enter(terminal, "let x = 1")
        let again = enter(terminal, "let x = 2")
        #expect(again.contains("<repl>:1:5: error: invalid redeclaration of 'x'"), "\(again)")
        #expect(again.contains("<repl entry 4>:1:5: note: 'x' previously declared here"), "\(again)")
    }

    @Test func runsThatEndEarlyAndLimits() throws {
        let terminal = try start()
        // `exit` ends the program before the entry's end: not kept.
        #expect(
            enter(terminal, "print(\"bye\"); exit(0)")
                == "bye\nentry not kept: it ended the program (exit) before its end; the session goes on as it was before it\nkvo> "
        )
        // An earlier entry that does not do again what it did: the REPL says so, and keeps nothing.
        let file = folder.appendingPathComponent("note.txt")
        try "hello".write(to: file, atomically: true, encoding: .utf8)
        #expect(
            enter(terminal, "let note = try! String(contentsOfFile: \"\(file.path)\", encoding: .utf8); note")
                == "hello\nkvo> ")
        try FileManager.default.removeItem(at: file)
        let replayed = enter(terminal, "print(note)")
        #expect(
            replayed.hasPrefix(
                "<repl>:1:1: error: the earlier entries, run again, stopped before this entry: they did not do what they did the first time; nothing changed (':save FILE' keeps them, ':reset' starts over); what they printed this time ends with:\n"
            ), "\(replayed)")
        #expect(replayed.contains("Fatal error: 'try!' expression unexpectedly raised an error"), "\(replayed)")
        #expect(enter(terminal, ":reset") == "session reset: no classes, objects or observations\nkvo> ")
        // :set max-depth reaches the program.
        #expect(enter(terminal, "import Foundation") == "kvo> ")
        #expect(enter(terminal, "class Pair: NSObject { @objc dynamic var a = 0; @objc dynamic var b = 0 }") == "kvo> ")
        #expect(enter(terminal, "let p = Pair()") == "kvo> ")
        #expect(enter(terminal, "let ta = p.observe(\\.a) { o, _ in o.b = 1 }") == "kvo> ")
        #expect(enter(terminal, "let tb = p.observe(\\.b) { _, _ in }") == "kvo> ")
        #expect(enter(terminal, ":set max-depth 1") == "max-depth is now 1\nkvo> ")
        let deep = enter(terminal, "p.a = 1")
        #expect(deep.hasPrefix("p.a → ta {kind = 1}\n  p.b → tb {kind = 1}\n"), "\(deep)")
        #expect(deep.contains("error: notifications nested deeper than the maximum depth (1)"), "\(deep)")
        #expect(
            deep.hasSuffix(
                "entry not kept: its run stopped before its end; the session goes on as it was before it\nkvo> "))
    }

    @Test func jsonAndLoadOfASwiftFile() throws {
        let file = folder.appendingPathComponent("model.swift")
        try "import Foundation\nclass Box: NSObject { @objc dynamic var n = 0 }\nlet box = Box()\nprint(\"loaded\")\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let terminal = try Terminal(
            arguments: ["--format", "json"],
            environment: ["KVO_HISTORY": folder.appendingPathComponent("history").path])
        terminal.expect("kvo> ")
        // A Swift file loaded first makes the session Swift.
        #expect(enter(terminal, ":load \(file.path)") == "{\"event\":\"print\",\"text\":\"loaded\",\"depth\":0}\nkvo> ")
        enter(terminal, "let t = box.observe(\\.n) { _, _ in print(\"seen\") }")
        #expect(
            enter(terminal, "box.n = 3")
                == "{\"event\":\"notify\",\"object\":\"box\",\"keyPath\":\"n\",\"observer\":\"t\",\"change\":{\"kind\":1},\"context\":null,\"depth\":0}\n{\"event\":\"print\",\"text\":\"seen\",\"depth\":1}\nkvo> "
        )
        // The echo is plain text, in JSON too; a raw write is an event of the new entry's.
        #expect(enter(terminal, "box.n + 1") == "4\nkvo> ")
        #expect(
            enter(terminal, "_ = fputs(\"raw\\n\", stdout)")
                == "{\"event\":\"print\",\"text\":\"raw\",\"depth\":0}\nkvo> ")
        #expect(
            enter(terminal, "box.n = \"x\"")
                == "{\"event\":\"error\",\"message\":\"cannot assign value of type 'String' to type 'Int'\",\"line\":1,\"column\":9,\"file\":\"<repl>\"}\nkvo> "
        )
    }

    // MARK: The REPL's commands and Tab in a Swift session (issue 42)

    /// Two classes, an object and a token: what the tests below look at.
    func declareModel(_ terminal: Terminal) {
        enter(
            terminal,
            "class Account: NSObject { @objc dynamic var balance: Double = 0; @objc var note = \"\"; var secret = 1 }")
        enter(
            terminal,
            "class Person: NSObject { @objc dynamic var name = \"Ann\"; @objc dynamic var account: Account?; func greet(_ other: Person) { } }"
        )
        enter(terminal, "let ann = Person()")
        enter(terminal, "let token = ann.observe(\\.name, options: [.new]) { _, _ in }")
    }

    @Test func objectsAndClassesShowTheProgramAsItsLastKeptEntryLeftIt() throws {
        let terminal = try start()
        #expect(enter(terminal, ":objects") == "no objects bound to names\nkvo> ")
        #expect(enter(terminal, ":classes") == "no classes declared\nkvo> ")
        enter(
            terminal,
            "class Account: NSObject { @objc dynamic var balance: Double = 0; @objc var note = \"\"; var secret = 1 }")
        // A class is listed as soon as it is declared, with what KVO makes of each property.
        #expect(
            enter(terminal, ":classes")
                == "Account: NSObject { balance: Double, note: String (not dynamic), secret: Int (not @objc) }\nkvo> ")
        declareModel(terminal)
        #expect(
            enter(terminal, ":classes")
                == "Account: NSObject { balance: Double, note: String (not dynamic), secret: Int (not @objc) }\n"
                + "Person: NSObject { name: String, account: Account? }\nkvo> ")
        let objects =
            "ann: <main.Person: ann>, observed (1 observance)\ntoken: <_NSKeyValueObservation: token>, not observed\nkvo> "
        #expect(enter(terminal, ":objects") == objects)
        // An entry that is not kept leaves the session's objects as they were.
        let raised = enter(terminal, "let ghost = Person(); ghost.setValue(1, forKey: \"nope\")")
        #expect(raised.contains("entry not kept"), "\(raised)")
        #expect(enter(terminal, ":obj") == objects)
        enter(terminal, "let other = Person(); other.account = Account()")
        #expect(
            enter(terminal, ":objects")
                == "ann: <main.Person: ann>, observed (1 observance)\nother: <main.Person: other>, not observed\n"
                + "token: <_NSKeyValueObservation: token>, not observed\nkvo> ")
    }

    @Test func graphDrawsWhatKvoRunGraphDrawsOfTheProgram() throws {
        let terminal = try start()
        declareModel(terminal)
        enter(terminal, "ann.account = Account(); let watch = ann.observe(\\.account?.balance) { _, _ in }")
        // At a terminal, a picture in a temporary file.
        let shown = enter(terminal, ":graph")
        #expect(shown.hasPrefix("the graph is in "), "\(shown)")
        #expect(shown.hasSuffix(" (':graph FILE' writes it elsewhere)\nkvo> "), "\(shown)")
        let path = shown.components(separatedBy: "the graph is in ").last?.components(separatedBy: " (").first ?? ""
        #expect(path.hasSuffix("/repl.graph.svg") || path.hasSuffix("/repl.graph.dot"), "\(path)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("ann"))
        // The graph named is the one `kvo-run graph` draws of the session's program.
        let dot = folder.appendingPathComponent("session.dot").path
        #expect(enter(terminal, ":graph \(dot)") == "wrote \(dot)\nkvo> ")
        let program = folder.appendingPathComponent("session.swift").path
        enter(terminal, ":save \(program)")
        let drawn = folder.appendingPathComponent("drawn.dot").path
        let graph = try CLI.run(["graph", program, "-o", drawn])
        #expect(graph.status == 0, "\(graph)")
        let session = try String(contentsOfFile: dot, encoding: .utf8)
        #expect(session == (try String(contentsOfFile: drawn, encoding: .utf8)))
        #expect(session.contains("<B>ann</B>: Person") && session.contains("<B>token</B>"), "\(session)")
        #expect(session.contains("forwarded for ann[1] (watch)"), "\(session)")
    }

    @Test func explainExplainsTheNextEntriesOnly() throws {
        let terminal = try start()
        declareModel(terminal)
        #expect(enter(terminal, ":explain") == "explain is off; ':explain on' or ':explain off'\nkvo> ")
        #expect(
            enter(terminal, ":explain on") == "explain on: each step of the KVO machinery is shown as '#' lines\nkvo> ")
        // The steps of this entry's change, and none of the earlier entries', run again unseen.
        #expect(
            enter(terminal, "ann.name = \"Bo\"")
                == "# change of ann.name (kind 1, setting), automatic: KVO wraps the setter in willChange/didChange\n"
                + "# will: ann[0] (token observes name) is pending; no old asked\n"
                + "# pending stack (top last): [ann.name]\n"
                + "# did: ann.name popped from the pending stack; 1 pending notification: ann[0]\n"
                + "# did: ann[0] (token observes name) is still registered: delivered; new = Bo read now\n"
                + "ann.name → token {kind = 1; new = Bo}\nkvo> ")
        #expect(enter(terminal, ":explain off") == "explain off\nkvo> ")
        #expect(enter(terminal, "ann.name = \"Cy\"") == "ann.name → token {kind = 1; new = Cy}\nkvo> ")
        // One switch for the REPL: it stays across :reset, into the next Swift session.
        enter(terminal, ":explain on")
        enter(terminal, ":reset")
        enter(terminal, "import Foundation")
        #expect(enter(terminal, ":explain") == "explain is on; ':explain on' or ':explain off'\nkvo> ")
    }

    /// Tab, then what the line shows; Ctrl-C clears it for the next.
    func completing(
        _ terminal: Terminal, _ typed: String, _ shown: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        terminal.clear()
        terminal.send(typed + "\t")
        terminal.expect(shown, timeout: 10, sourceLocation: sourceLocation)
        terminal.send("\u{03}")
        terminal.expect("kvo> ", sourceLocation: sourceLocation)
    }

    @Test func tabCompletesWhatTheEntriesDeclared() throws {
        let terminal = try start()
        declareModel(terminal)
        enter(terminal, "func showAll() { }")
        // Members of the object a name holds: its properties, its methods, NSObject's KVO.
        completing(terminal, "ann.acc", "ann.account")
        completing(terminal, "ann.gre", "ann.greet(")
        completing(terminal, "ann.addObs", "ann.addObserver(")
        // Names the entries declared: classes, functions, variables.
        completing(terminal, "Pers", "Person ")
        completing(terminal, "showA", "showAll ")
        completing(terminal, "tok", "token ")
        // Key paths: Swift's, through an optional with `?.`, and in strings.
        completing(terminal, "ann.observe(\\.acc", "ann.observe(\\.account?.")
        completing(terminal, "ann.observe(\\.account?.bal", "ann.observe(\\.account?.balance")
        completing(terminal, "ann.addObserver(ann, forKeyPath: \"account.ba", "forKeyPath: \"account.balance\"")
        // Meta-commands and their arguments.
        completing(terminal, ":cla", ":classes ")
        completing(terminal, ":info a", ":info ann")
        // A name declared by the entry just accepted.
        enter(terminal, "let later = Account()")
        completing(terminal, "later.bal", "later.balance")
    }
}
