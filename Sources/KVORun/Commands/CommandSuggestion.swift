import KVOScript

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
        let scored = subcommands.map { ($0, Suggestion.distance(first.lowercased(), $0, limit: 2)) }.filter {
            $0.1 <= 2 && $0.1 < $0.0.count
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let rest = arguments.dropFirst().joined(separator: " ")
        return "kvo-run: unknown command '\(first)'; did you mean 'kvo-run \(best.0)\(rest.isEmpty ? "" : " " + rest)'?"
    }
}
