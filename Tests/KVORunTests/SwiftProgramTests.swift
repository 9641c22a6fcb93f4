import Foundation
import Testing
import _KVOTestSupport
@testable import KVORun
import SwiftRewriter

/// The compiled Swift route (SPEC §11.0): the driver's errors, its caches
/// and its limits. The programs' own behaviour is in scenarios/swift/.
@Suite(.serialized) struct SwiftProgramTests {
    /// Runs `source` as a Swift program, capturing all it prints.
    static func run(
        _ source: String, settings: SwiftProgram.Settings = .init(), compileOnly: Bool = false,
        environment: [String: String] = [:]
    ) -> (text: String, status: Int32) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-swift-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("program.swift").path
        try? source.write(toFile: path, atomically: true, encoding: .utf8)
        let outputPath = directory.appendingPathComponent("output").path
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        let descriptor = open(outputPath, O_WRONLY)
        var saved: [String: String?] = [:]
        for (key, value) in environment {
            saved[key] = ProcessInfo.processInfo.environment[key]
            setenv(key, value, 1)
        }
        let status = SwiftProgram.run(
            source, display: "program.swift", path: path, settings: settings, compileOnly: compileOnly,
            output: descriptor)
        for (key, value) in saved {
            if let value { setenv(key, value, 1) } else { unsetenv(key) }
        }
        close(descriptor)
        return ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "", status)
    }

    @Test func aScenarioThatImportsFoundationIsSwift() {
        #expect(SwiftProgram.isSwift("// note\n\n/* a\n b */\nimport Foundation\n", file: "x.kvo"))
        #expect(SwiftProgram.isSwift("print(1)", file: "x.swift"))
        #expect(!SwiftProgram.isSwift("class A { }\nimport Foundation\n", file: "x.kvo"))
    }

    @Test func withoutAToolchainOneClearError() {
        var settings = SwiftProgram.Settings()
        settings.swiftc = "/nonexistent/swiftc"
        let result = Self.run("import Foundation\nprint(1)\n", settings: settings)
        #expect(result.status == 2)
        #expect(
            result.text
                == "program.swift:1:1: error: this is a Swift program, and the Swift compiler '/nonexistent/swiftc' (named by --swiftc or KVO_SWIFTC) cannot be run; name an installed swiftc\nimport Foundation\n^\n"
        )
        let none = Self.run("import Foundation\nprint(1)\n", environment: ["PATH": "/nonexistent", "KVO_SWIFTC": ""])
        #expect(none.status == 2)
        #expect(none.text.contains("needs the Swift compiler 'swiftc', which is not on PATH"))
    }

    @Test func compileErrorsLandOnTheUsersLine() {
        let source = """
            import Foundation
            class Account: NSObject {
                @objc dynamic var balance: Double = 0
            }
            let acct = Account()
            acct.balance = "a lot"
            """
        let result = Self.run(source, compileOnly: true)
        #expect(result.status == 2)
        #expect(
            result.text.hasPrefix("program.swift:6:16: error: cannot assign value of type 'String' to type 'Double'"))
        #expect(result.text.contains("\nacct.balance = \"a lot\"\n               ^\n"))
    }

    @Test func checkCompilesWithoutRunning() {
        let result = Self.run("import Foundation\nprint(\"ran\")\n", compileOnly: true)
        #expect(result == ("", 0))
    }

    @Test func timeoutStopsARunawayProgram() {
        var settings = SwiftProgram.Settings()
        settings.timeout = 1
        let result = Self.run("import Foundation\nprint(\"start\")\nwhile true {}\n", settings: settings)
        #expect(result.status == 1)
        #expect(
            result.text
                == "start\nprogram.swift:3:1: error: the program ran longer than 1 s and was stopped (--timeout)\nwhile true {}\n^\n"
        )
    }

    @Test func theCacheNoticesAChangedRuntime() throws {
        // A copy of the runtime's sources: changing it must rebuild the runtime.
        let sources = packageRoot().appendingPathComponent("Sources")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("kvo-runtime-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        for module in ["KVOCore", "KVOFoundation"] {
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: sources.appendingPathComponent(module), to: copy.appendingPathComponent(module))
        }
        setenv("KVO_RUNTIME_SOURCES", copy.path, 1)
        defer { unsetenv("KVO_RUNTIME_SOURCES") }
        let swiftc = try SwiftProgram.toolchain(nil, display: "x")
        let first = try SwiftProgram.runtimeDirectory(swiftc: swiftc)
        #expect(try SwiftProgram.runtimeDirectory(swiftc: swiftc) == first)
        let extra = copy.appendingPathComponent("KVOFoundation/Extra.swift")
        try "public let _kvoTestMarker = 1\n".write(to: extra, atomically: true, encoding: .utf8)
        let second = try SwiftProgram.runtimeDirectory(swiftc: swiftc)
        #expect(second != first)
        #expect(FileManager.default.fileExists(atPath: second + "/libKVOFoundation.so"))
    }

    @Test func rewriterKeepsColumnsAndMarksLines() {
        let result = SwiftRewriter.rewrite(
            "import Foundation\nclass A: NSObject {\n    @objc dynamic var x = 0\n}\nlet a = A()\na.x = 1\n",
            fileName: "f.swift")
        #expect(result.source.contains("import KVOFoundation"))
        // `@objc dynamic` blanked column for column (4 + 5 + 1 + 7 + 1 spaces).
        let blanked = String(repeating: " ", count: 18)
        #expect(
            result.source.contains(
                "\n\(blanked)var x = 0 { willSet { _kvoWill(self, \"x\") } didSet { _kvoDid(self, \"x\") } }\n"),
            "\(result.source)")
        #expect(result.source.contains("_kvoAt(6, 1, 1)\n#sourceLocation(file: \"f.swift\", line: 6)\na.x = 1"))
        #expect(result.source.contains("let a = A(); _ = _kvoNamed(a, \"a\")"))
        #expect(result.warnings.isEmpty)
    }

    /// `let a = A(); a.x = 1` on one line: the name was inserted after the
    /// `;`, making an empty statement swiftc rejects.
    @Test func aNamedBindingFollowedByASemicolon() {
        let result = SwiftRewriter.rewrite(
            "import Foundation\nclass A: NSObject { }\nlet a = A(); print(a)\n", fileName: "f.swift")
        #expect(result.source.contains("let a = A(); _ = _kvoNamed(a, \"a\"); print(a)"), "\(result.source)")
    }
}
