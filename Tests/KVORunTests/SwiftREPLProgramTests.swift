import RewriterProtocol
import Testing

/// The REPL's Swift program (SPEC §10.1, §11.0) as text: how the entries are
/// put together, where the new one starts, echoes, declarations that replace
/// earlier ones, and when an entry is whole. The REPL running it is in
/// SwiftREPLTests.
@Suite struct SwiftREPLProgramTests {
    static func entries(_ texts: String...) -> [REPLEntry] {
        texts.enumerated().map { index, text in
            REPLEntry(text: text, name: index == texts.count - 1 ? "<repl>" : "<repl entry \(index + 1)>")
        }
    }

    @Test func eachEntryKeepsItsNameAndLinesAndTheNewOneIsMarked() throws {
        let program = try TestRewriter.replProgram(
            Self.entries(
                "import Foundation", "class A: NSObject {\n    @objc dynamic var x = 0\n}", "let a = A()",
                "a.x = 1\na.x"))
        #expect(program.firstLines == [1, 2, 5, 6])
        #expect(
            program.joined
                == "import Foundation\nclass A: NSObject {\n    @objc dynamic var x = 0\n}\nlet a = A()\na.x = 1\na.x")
        let source = program.source
        // Between earlier entries a boundary, before the new one the switch to the terminal.
        #expect(
            source.contains("_kvoEntryBoundary()\n#sourceLocation(file: \"<repl entry 2>\", line: 1)\n"), "\(source)")
        #expect(source.contains("_kvoEntryBegins()\n#sourceLocation(file: \"<repl>\", line: 1)\n"), "\(source)")
        // The end, given the program's classes: the runtime describes them for `:classes`.
        #expect(source.contains("\n_kvoEntryEnds([A.self])\n#sourceLocation(file: \"<repl>\", line: 2)\n"), "\(source)")
        // Runtime marks name the program's own lines; the runtime maps them
        // to the entry's. Top-level statements start a picture's statement.
        #expect(
            source.contains("_kvoTopLevel(7, 1, 1)\n#sourceLocation(file: \"<repl>\", line: 2)\na.x ⇢ _kvoEcho"),
            "\(source)")
        // An assignment is an expression too: the operator takes it whole, and echoes nothing.
        #expect(source.contains("a.x = 1 ⇢ _kvoEcho"), "\(source)")
        #expect(program.problem == nil)
    }

    /// What Tab completes in a Swift session, read by Swift's parser
    /// (issue 42): top-level names, each type's members (its extensions'
    /// too), superclasses, and the types variables are declared with.
    @Test func theEntriesDeclarationsAreReadForCompletion() throws {
        let program = try TestRewriter.replProgram(
            Self.entries(
                "import Foundation",
                "class A: NSObject {\n    @objc dynamic var x = 0\n    var y = 1\n    func f(_ a: Int) { }\n"
                    + "    func g(to b: Int) { }\n    func h() { }\n    static func s() { }\n    static var t = 0\n}",
                "extension A { @objc var z: Int { 1 } }", "struct P { var q = 1 }",
                "let a = A(), b = 2\nvar (c, d) = (1, 2)\nlet p: P = P()\nlet n = Int(\"1\")",
                "func top() { }\nfunc ==(l: P, r: P) -> Bool { true }", "class Box<T>: NSObject { }",
                "typealias Alias = Int\nclass Sub: A { }", "class Twice: NSObject { }\nlet Twice2 = 1"))
        let declared = program.declarations
        #expect(
            declared.names == ["A", "Alias", "Box", "P", "Sub", "Twice", "Twice2", "a", "b", "c", "d", "n", "p", "top"])
        #expect(declared.members["A"] == ["f(", "g(to: ", "h()", "x", "y", "z"])
        #expect(declared.members["P"] == ["q"])
        #expect(declared.superclasses == ["A": "NSObject", "Box": "NSObject", "Sub": "A", "Twice": "NSObject"])
        // `Int("1")` calls no type of the program's: its type is not guessed.
        #expect(declared.variableTypes == ["a": "A", "p": "P"])
        // Every class the runtime can be handed by name; not a generic one.
        #expect(program.source.contains("_kvoEntryEnds([A.self, Sub.self, Twice.self])"), "\(program.source)")
    }

    @Test func onlyTheNewEntrysWarningsAtItsOwnLines() throws {
        let declare = "class Quiz: NSObject { var score = 0 }\nlet quiz = Quiz()"
        let observe = "let t = quiz.observe(\\.score) { _, _ in }"
        let program = try TestRewriter.replProgram(Self.entries("import Foundation", declare, observe, "\n" + observe))
        #expect(program.warnings.count == 1)
        #expect(program.warnings.first?.line == 2)
        #expect(program.warnings.first?.column == 22)
    }

    @Test func anEntryThatContinuesTheOneBeforeItIsAProblem() throws {
        let program = try TestRewriter.replProgram(Self.entries("import Foundation", "let x = 1", "  + 2"))
        #expect(
            program.problem?.message
                == "Swift reads this entry as the rest of the statement at <repl entry 2>:1:1 (an entry must stand on its own; put the two together in one entry, or start this one differently)"
        )
        #expect(program.problem?.line == 1)
        #expect(program.problem?.column == 3)
        let member = try TestRewriter.replProgram(Self.entries("import Foundation", "let s = \"ab\"", ".count"))
        #expect(member.problem != nil)
        #expect(try TestRewriter.replProgram(Self.entries("import Foundation", "let x = 1", "-x")).problem == nil)
    }

    @Test func aDeclarationAgainReplacesTheEarlierOne() throws {
        let earlier = Self.entries(
            "import Foundation", "class A: NSObject { }\nlet a = A()", "func f(_ x: Int) -> Int { x }",
            "func f(_ x: String) -> String { x }", "struct S { }", "")
        let replacing = try TestRewriter.replacingDeclarations(
            in: Array(earlier.dropLast()), by: "class A: NSObject { var n = 1 }\nfunc f(_ y: Int) -> Int { 2 * y }")
        #expect(replacing.replaced == ["A", "f(_:)"])
        // The class goes, the binding stays; the Int overload goes (its entry with it), the String one stays.
        #expect(
            replacing.entries.map(\.text) == [
                "import Foundation", "\nlet a = A()", "func f(_ x: String) -> String { x }", "struct S { }",
            ])
        let none = try TestRewriter.replacingDeclarations(in: earlier, by: "let b = A()")
        #expect(none.replaced.isEmpty)
        #expect(none.entries == earlier)
    }

    @Test func anEntryGoesOnAsSwiftReadsIt() throws {
        for open in [
            "class A: NSObject {", "let s = \"\"\"\nline", "let x = 1 +", "f(1,", "let t = a.observe(\\.x) { _, c in",
            "/* a comment", "let d: [String: Int] = [",
        ] {
            #expect(try TestRewriter.isIncomplete(open), "\(open)")
        }
        for whole in [
            "print(1)", "let s = \"\"\"\nline\n\"\"\"", "\"abc", "class A { }", "a.x = 1 // c", "/* done */ 1",
            "if x { }", "let x = #\"raw\"#",
        ] {
            #expect(try !TestRewriter.isIncomplete(whole), "\(whole)")
        }
    }
}
