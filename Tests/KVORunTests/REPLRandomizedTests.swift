import _KVOTestSupport
import Foundation
import KVOScript
@testable import KVORun
import Testing

/// Random REPL sessions mixing good entries, entries the checker rejects,
/// entries stopped by a runtime error and entries that raise an uncaught
/// exception. Two promises are checked on each:
/// - all or nothing: the session prints what a session of only its accepted
///   entries prints, and ends with the same objects bound to names;
/// - `:save` writes a file that, run as a scenario, prints what the session
///   printed (an uncaught exception is caught in the file, so its report reads
///   "(caught)").
@Suite struct REPLRandomizedTests {
    /// A small, fixed generator, so a failure replays.
    typealias Generator = SplitMix64

    static let setup = [
        "class Account { var balance: Int = 0; var owner: String = \"\" }",
        "class Person { var name: String = \"\" }",
        "let watcher = Person()",
    ]

    /// One random entry. Names come from a small set, so that some entries
    /// use names no accepted entry declared (a check error) and some redeclare.
    static func entry(_ random: inout Generator) -> String {
        let account = "a\(Int.random(in: 0..<3, using: &random))"
        let variable = "v\(Int.random(in: 0..<3, using: &random))"
        let number = Int.random(in: -5..<50, using: &random)
        let good = [
            "let \(account) = Account()",
            "\(account).balance = \(number)",
            "\(account).balance += 1",
            "print(\(account).balance)",
            "\(account).addObserver(watcher, forKeyPath: \"balance\", options: [.new, .old])",
            "\(account).owner = \"o\(number)\"",
            "var \(variable) = \(number)",
            "\(variable) = \(variable) + \(number)",
            "print(\(variable))",
            "\(variable) * 2",
            "\(account)",
            "print(\(account).value(forKey: \"balance\")); \(account).setValue(\(number), forKey: \"balance\")",
        ]
        let checkErrors = [
            "let \(account) = Acount()",
            "print(\(variable)x)",
            "\(account).balanc = 1",
            "print(1); let \(variable) = 2 +* 3",
        ]
        let runtimeErrors = [
            "let \(variable) = \(number) / 0",
            "print(\(number)); \(account).balance = 7; let \(variable) = 1 / 0; print(\"never\")",
            "var \(variable) = [1, 2][5]",
            "\(account).balance = \(number); assert(false, \"stop\"); \(account).balance = 0",
        ]
        let exceptions = [
            "\(account).setValue(1, forKey: \"nope\")",
            "print(\(number)); \(account).value(forKey: \"zz\"); print(\"never\")",
            "let \(variable) = \(account).value(forKey: \"zz\")",
            "\(account).balance = \(number); \(account).removeObserver(watcher, forKeyPath: \"owner\")",
        ]
        let pools = [good, good, good, checkErrors, runtimeErrors, exceptions]
        let pool = pools[Int.random(in: 0..<pools.count, using: &random)]
        return pool[Int.random(in: 0..<pool.count, using: &random)]
    }

    /// Reports of uncaught exceptions, in the session's and the saved file's words, alike.
    static func normalizingExceptions(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let uncaught =
                line.hasPrefix("*** Entry stopped")
                ? "*** Entry stopped by uncaught exception '"
                : "*** Terminating app due to uncaught exception '"
            if line.hasPrefix(uncaught) {
                let rest = line.dropFirst(uncaught.count)
                let name = rest.prefix { $0 != "'" }
                let reasonStart = rest.range(of: "reason: '")
                let reason = reasonStart.map { rest[$0.upperBound...].dropLast() } ?? ""
                return "*** \(name): \(reason)"
            }
            if line.hasPrefix("*** "), let caught = line.range(of: " (caught): ") {
                return String(line[..<caught.lowerBound]) + ": " + String(line[caught.upperBound...])
            }
            return String(line)
        }.joined(separator: "\n")
    }

    static let seeds: [UInt64] = Array(1...100)

    @Test(arguments: seeds) func aSessionDoesWhatItsAcceptedEntriesDo(seed: UInt64) throws {
        var random = Generator(state: seed)
        let entries = Self.setup + (0..<25).map { _ in Self.entry(&random) }
        let folder = try Folder()
        let saved = folder.url.appendingPathComponent("saved.kvo").path
        let whole = runREPL(entries + [":objects", ":save \(saved)"])

        // Which entries were accepted: replaying one at a time in a fresh REPL.
        let accepted = onLargeStack { () -> [String] in
            let (session, _, _) = capturingSession()
            var kept: [String] = []
            for entry in entries {
                let result = session.runEntry(entry, file: "<repl>") { _ in }
                if result.ending != .scriptErrors { kept.append(entry) }
            }
            return kept
        }
        let replayed = runREPL(accepted + [":objects"])
        let context = "seed \(seed):\n" + entries.joined(separator: "\n")
        #expect(whole.out == replayed.out, Comment(rawValue: context))
        let saidBeforeSave = whole.said.components(separatedBy: "saved ").first ?? ""
        #expect(saidBeforeSave == replayed.said, Comment(rawValue: context))

        let file = try String(contentsOfFile: saved, encoding: .utf8)
        let fromFile = _KVOTestSupport.run(file)
        #expect(fromFile.err == "", Comment(rawValue: context + "\n--- saved\n" + file))
        #expect(fromFile.status == 0, Comment(rawValue: context + "\n--- saved\n" + file))
        #expect(
            Self.normalizingExceptions(fromFile.out) == Self.normalizingExceptions(whole.out),
            Comment(rawValue: context + "\n--- saved\n" + file))
    }
}
