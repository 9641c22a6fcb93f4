#if canImport(Glibc)
import Glibc
#endif

/// `kvo-run chek x.kvo`: a first argument that is no file and no option but
/// nearly a subcommand's name is a mistyped subcommand, not a scenario.
public enum CommandSuggestion {
    /// The message for `arguments` (without the program name), or nil when
    /// the first one is a file, an option, a subcommand or nothing like one.
    public static func mistypedSubcommand(_ arguments: [String], subcommands: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !first.hasSuffix(".kvo"),
            !subcommands.contains(first), !Files.exists(first)
        else { return nil }
        let scored = subcommands.map { ($0, distance(first.lowercased(), $0)) }.filter {
            $0.1 <= 2 && $0.1 < $0.0.count
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let rest = arguments.dropFirst().joined(separator: " ")
        return "kvo-run: unknown command '\(first)'; did you mean 'kvo-run \(best.0)\(rest.isEmpty ? "" : " " + rest)'?"
    }

    /// Levenshtein distance, for short words.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8.prefix(64)), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
