import Foundation
import Testing
import _KVOTestSupport
import KVOCore
@testable import KVORun
import RewriterProtocol

/// Issue 41 item 10: where kvo-run says a compiled program's error is. Each
/// test runs the real kvo-run on a real file: the file name, the program's
/// own `#sourceLocation` and the column are the user's, never the rewritten
/// file's in the cache.
@Suite(.serialized) struct SwiftPositionTests {
    static let wrongType = "import Foundation\nlet x: Int = \"s\"\n"
    static let message = "error: cannot convert value of type 'String' to specified type 'Int'"

    /// Runs kvo-run on `source` saved as `name` in a fresh folder.
    static func run(_ source: String, named name: String) throws -> CLI.Result {
        let folder = try Folder()
        try folder.write(name, source)
        return try folder.run([name])
    }

    /// Nothing of the cache: no rewritten file, no cache folder.
    static func expectNoCachePath(_ result: CLI.Result, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(!result.err.contains("main.swift"), "\(result)", sourceLocation: sourceLocation)
        #expect(!result.err.contains("programs/"), "\(result)", sourceLocation: sourceLocation)
        #expect(!result.err.contains("_kvo"), "\(result)", sourceLocation: sourceLocation)
    }

    /// A `"`, `\` or control character in the file's name is escaped in the
    /// rewritten `#sourceLocation` literal, and swiftc's error (which names
    /// the literal as written) is said at the user's file, line and column.
    @Test(arguments: [
        "quote\"d.swift", "back\\slash.swift", "new\nline.swift", "tab\tand\rcr.swift", "bell\u{7}.swift",
    ])
    func anyFileNameKeepsErrorsOnTheUsersLine(_ name: String) throws {
        let result = try Self.run(Self.wrongType, named: name)
        #expect(result.status == 2, "\(result)")
        // kvo-run shows a file name's control characters escaped (`\n`), its tab as is.
        let shown = ControlCharacters.escaping(name)
        #expect(
            result.err.hasPrefix("\(shown):2:14: \(Self.message)\nlet x: Int = \"s\"\n             ^"), "\(result)")
        Self.expectNoCachePath(result)
    }

    @Test func theDirectivesFileLiteralIsSwiftsEscapes() {
        #expect(
            SourceLocationFile.literal("a\"b\\c\nd\re\tf\0g\u{1B}h\u{85}.swift")
                == "a\\\"b\\\\c\\nd\\re\\tf\\0g\\u{1b}h\\u{85}.swift")
        #expect(SourceLocationFile.literal("café 名前.swift") == "café 名前.swift")
    }

    /// A program's own `#sourceLocation(file:line:)` rules its lines, the
    /// rewriter's inserted lines notwithstanding (as swiftc on a Mac says);
    /// its `#sourceLocation()` returns to the user's file and line, with the
    /// excerpt, never to the rewritten file in the cache.
    @Test func theProgramsOwnSourceLocationIsFollowed() throws {
        let source = """
            import Foundation
            #sourceLocation(file: "generated.swift", line: 100)
            class A: NSObject {
                @objc dynamic var x = 0
            }
            let a = A()
            let y: Int = "s"
            #sourceLocation()
            struct S {
                let z: Int = "t"
            }
            a.x = 1

            """
        let result = try Self.run(source, named: "own.swift")
        #expect(result.status == 2, "\(result)")
        #expect(result.err.contains("generated.swift:104:14: \(Self.message)\n"), "\(result)")
        // Another file's lines are not the user's: no excerpt of them.
        #expect(!result.err.contains("let y: Int = \"s\"\n"), "\(result)")
        // A member declaration has no statement mark after it: only the
        // reset's replacement brings it back to the user's file.
        #expect(
            result.err.contains("own.swift:10:18: \(Self.message)\n    let z: Int = \"t\"\n                 ^"),
            "\(result)")
        Self.expectNoCachePath(result)
    }

    /// A program that does not parse is checked as written (`swiftc -parse`):
    /// its own `#sourceLocation` is followed there too, as swiftc says it (the
    /// end of the file is past the directive's lines: the file's own).
    @Test func aParseErrorUnderTheProgramsOwnDirectiveIsWhereItSays() throws {
        let source = """
            import Foundation
            #sourceLocation(file: "generated.swift", line: 100)
            let a = 1
            class B {

            """
        let result = try Self.run(source, named: "parse.swift")
        #expect(result.status == 2, "\(result)")
        #expect(result.err.contains("parse.swift:5:1: error: expected '}' in class"), "\(result)")
        #expect(result.err.contains("generated.swift:101:9: note: to match this opening '{'"), "\(result)")
        Self.expectNoCachePath(result)
    }

    /// swiftc counts columns in UTF-8 bytes; kvo-run says and draws them in
    /// Characters, as scenarios and the rewriter's warnings do.
    @Test func columnsAreCharactersAfterNonASCIIText() throws {
        let café = try Self.run("import Foundation\nlet café = 1; let z: Int = \"s\"\n", named: "cafe.swift")
        #expect(
            café.err.hasPrefix(
                "cafe.swift:2:28: \(Self.message)\nlet café = 1; let z: Int = \"s\"\n"
                    + String(repeating: " ", count: 27) + "^"), "\(café)")
        let cjk = try Self.run("import Foundation\nlet 名前名前名前 = 1; let z: Int = \"s\"\n", named: "cjk.swift")
        #expect(
            cjk.err.hasPrefix(
                "cjk.swift:2:30: \(Self.message)\nlet 名前名前名前 = 1; let z: Int = \"s\"\n"
                    + String(repeating: " ", count: 29) + "^"), "\(cjk)")
    }

    @Test func aByteColumnBecomesACharacterColumn() {
        #expect(SwiftProgram.characterColumn(1, in: "café") == 1)
        #expect(SwiftProgram.characterColumn(4, in: "café") == 4)
        // Inside é's two bytes: é's column.
        #expect(SwiftProgram.characterColumn(5, in: "café") == 4)
        #expect(SwiftProgram.characterColumn(6, in: "café") == 5)
        #expect(SwiftProgram.characterColumn(20, in: "名前名前名前 x") == 8)
        // Past the line: counted on in bytes, as swiftc's end-of-line column is.
        #expect(SwiftProgram.characterColumn(8, in: "é") == 7)
    }

    /// The code kvo-run adds to a class (its KVC table) is compiled under a
    /// name of its own: swiftc's errors there follow from the user's own
    /// (an unknown type, a class declared twice) and are left out; the
    /// user's error and its notes are said as swiftc says them, nothing at
    /// a line the file does not have.
    @Test(arguments: [
        (
            "import Foundation\nclass A: NSObject {\n    @objc dynamic var x: Nope = 0\n}\n",
            ["u.swift:3:26: error: cannot find type 'Nope' in scope"]
        ),
        (
            "import Foundation\nclass A: NSObject { @objc dynamic var x = 0 }\nclass A: NSObject { @objc dynamic var y = 0 }\n",
            ["u.swift:3:7: error: invalid redeclaration of 'A'", "u.swift:2:7: note: 'A' previously declared here"]
        ),
    ])
    func errorsInTheGeneratedTableFollowingTheUsersAreLeftOut(_ source: String, _ expected: [String]) throws {
        let result = try Self.run(source, named: "u.swift")
        #expect(result.status == 2, "\(result)")
        let said = result.err.split(separator: "\n").filter { $0.hasPrefix("u.swift:") }.map(String.init)
        #expect(said == expected, "\(result)")
        Self.expectNoCachePath(result)
        #expect(!result.err.contains("KVC table"), "\(result)")
    }

    /// Alone (no error of the user's), an error in the generated table is
    /// said at the closing brace of the class it belongs to, in the user's
    /// file, saying whose code it is and what to do.
    @Test func anErrorInTheGeneratedTableAloneIsSaidAtTheClassesBrace() {
        let literal = SourceLocationFile.literal("we\"ird.swift")
        let log = """
            \(SourceLocationFile.generatedPrefix)\(literal):9:94: error: cannot infer type of closure parameter 'v'
            \(SourceLocationFile.generatedPrefix)\(literal):9:12: note: a note of it
            """
        let placed = SwiftProgram.placingGeneratedCode(
            SwiftProgram.compilerDiagnostics(
                log, files: ["we\"ird.swift"],
                source: "#sourceLocation(file: \"\(SourceLocationFile.generatedPrefix)\(literal)\", line: 9)\n"),
            files: ["we\"ird.swift"])
        #expect(placed.map(\.file) == ["we\"ird.swift", "we\"ird.swift"])
        #expect(placed.map(\.diagnostic.location) == [.init(line: 9, column: 1), .init(line: 9, column: 1)])
        #expect(
            placed.first?.diagnostic.message.hasPrefix(
                "in the KVC table kvo-run adds to the class this brace closes: cannot infer type of closure parameter 'v'; declare the property"
            ) == true)
        #expect(placed.last?.diagnostic.message == "a note of it")
    }
}
