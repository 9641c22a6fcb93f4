import KVOCore
import KVOOutput
import KVOScript
import RewriterProtocol

#if canImport(Glibc)
import Glibc
#endif

extension SwiftProgram {
    /// The rewriter's warnings as kept beside a cached program: one a line,
    /// `line column length message`, the message with `\\`, `\n` escaped.
    static func warningsText(_ warnings: [Diagnostic]) -> String {
        warnings.map { warning in
            var message = ""
            for character in warning.message {
                switch character {
                case "\\": message += "\\\\"
                case "\n": message += "\\n"
                default: message.append(character)
                }
            }
            return "\(warning.location.line) \(warning.location.column) \(warning.length) \(message)\n"
        }.joined()
    }

    /// A key-path string with a key no class of the program has, near one
    /// it has: the scenario language's did-you-mean (`KeyPathStringCheck`),
    /// at the string.
    static func keyPathWarnings(_ program: RewrittenProgram) -> [Diagnostic] {
        guard !program.keyPaths.isEmpty else { return [] }
        let known = Set(program.knownKeys)
        return program.keyPaths.compactMap { use in
            KeyPathStringCheck.warning(path: use.path, call: use.call, known: known, candidates: program.knownKeys).map
            {
                Diagnostic(
                    .warning, $0, at: KVOScript.SourceLocation(line: use.line, column: use.column), length: use.length)
            }
        }
    }

    static func storedWarnings(_ path: String) -> [Diagnostic] {
        guard let text = try? Files.read(path) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let number = Int(parts[0]), let column = Int(parts[1]), let length = Int(parts[2])
            else { return nil }
            var message = ""
            var escaped = false
            for character in parts[3] {
                if escaped {
                    message.append(character == "n" ? "\n" : character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    message.append(character)
                }
            }
            return Diagnostic(
                .warning, message, at: KVOScript.SourceLocation(line: number, column: column), length: length)
        }
    }

    /// swiftc's diagnostics about the user's files (`FILE:LINE:COL: error: …`);
    /// the excerpts it prints are of the rewritten text and are left out.
    static func compilerDiagnostics(_ text: String, files: [String]) -> [(file: String, diagnostic: Diagnostic)] {
        var result: [(file: String, diagnostic: Diagnostic)] = []
        // The longest name first: one may begin with another.
        let names = files.sorted { $0.count > $1.count }
        for line in text.split(separator: "\n") {
            guard let display = names.first(where: { line.hasPrefix($0 + ":") }) else { continue }
            let rest = line.dropFirst(display.count + 1)
            let parts = rest.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let lineNumber = Int(parts[0]), let column = Int(parts[1]) else { continue }
            let severityText = parts[2].trimmingSpaces
            let severity: Diagnostic.Severity
            switch severityText {
            case "error": severity = .error
            case "warning": severity = .warning
            case "note": severity = .note
            default: continue
            }
            result.append(
                (
                    display,
                    Diagnostic(
                        severity, String(parts[3].trimmingSpaces),
                        at: KVOScript.SourceLocation(line: lineNumber, column: column))
                ))
        }
        return result
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: Substring()) { $0.append($1) }
    }
}
