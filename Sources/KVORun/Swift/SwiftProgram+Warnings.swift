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
    /// swiftc names a file as its `#sourceLocation` literal is written
    /// (`SourceLocationFile`, escapes and all): each of `files` is looked
    /// for so and named as itself; each other literal of the `source`'s
    /// directives (the program's own `#sourceLocation(file:…)`) is named as
    /// written, as swiftc on a Mac names it. Nothing else is the user's (the
    /// rewritten file in the cache never is).
    static func compilerDiagnostics(
        _ text: String, files: [String], source: String = ""
    )
        -> [(file: String, diagnostic: Diagnostic)]
    {
        var result: [(file: String, diagnostic: Diagnostic)] = []
        var printed = files.map { (literal: SourceLocationFile.literal($0), name: $0) }
        for literal in sourceLocationLiterals(source) where !printed.contains(where: { $0.literal == literal }) {
            printed.append((literal, literal))
        }
        // The longest name first: one may begin with another.
        printed.sort { $0.literal.count > $1.literal.count }
        for line in text.split(separator: "\n") {
            guard let file = printed.first(where: { line.hasPrefix($0.literal + ":") }) else { continue }
            let rest = line.dropFirst(file.literal.count + 1)
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
                    file.name,
                    Diagnostic(
                        severity, String(parts[3].trimmingSpaces),
                        at: KVOScript.SourceLocation(line: lineNumber, column: column))
                ))
        }
        return result
    }

    /// swiftc's diagnostics in the code kvo-run adds to a class (its KVC
    /// table, named `SourceLocationFile.generatedPrefix` + the user's file
    /// at the class's closing brace): they follow from an error in the
    /// user's code (an unknown type, a class declared twice), so they are
    /// left out when there is one; alone, each is said at that closing brace.
    static func placingGeneratedCode(
        _ found: [(file: String, diagnostic: Diagnostic)], files: [String]
    ) -> [(file: String, diagnostic: Diagnostic)] {
        let prefix = SourceLocationFile.generatedPrefix
        if found.contains(where: { !$0.file.hasPrefix(prefix) && $0.diagnostic.severity == .error }) {
            // With the notes that belong to them (a note follows its error).
            var dropping = false
            return found.filter { item in
                if item.diagnostic.severity != .note { dropping = item.file.hasPrefix(prefix) }
                return !dropping && !item.file.hasPrefix(prefix)
            }
        }
        return found.map { item in
            guard item.file.hasPrefix(prefix) else { return item }
            let literal = String(item.file.dropFirst(prefix.count))
            let file = files.first { SourceLocationFile.literal($0) == literal } ?? literal
            var diagnostic = item.diagnostic
            diagnostic.location = KVOScript.SourceLocation(line: diagnostic.location.line, column: 1)
            if diagnostic.severity != .note {
                diagnostic.message =
                    "in the KVC table kvo-run adds to the class this brace closes: \(diagnostic.message); "
                    + "declare the property with its type written out, and if that does not help, report it to kvo-run with the program"
            }
            return (file, diagnostic)
        }
    }

    /// The file literals of `text`'s `#sourceLocation(file: "…"` directives,
    /// as written between the quotes.
    static func sourceLocationLiterals(_ text: String) -> [String] {
        var literals: [String] = []
        var rest = Substring(text)
        while let found = rest.firstRange(of: "#sourceLocation(") {
            rest = rest[found.upperBound...]
            var scan = rest.drop { $0 == " " || $0 == "\t" }
            guard scan.hasPrefix("file:") else { continue }
            scan = scan.dropFirst(5).drop { $0 == " " || $0 == "\t" }
            guard scan.first == "\"" else { continue }
            scan = scan.dropFirst()
            var literal = ""
            var escaped = false
            var closed = false
            for character in scan {
                if character == "\n" { break }
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    closed = true
                    break
                }
                literal.append(character)
            }
            if closed && !literals.contains(literal) { literals.append(literal) }
        }
        return literals
    }

    /// swiftc's column (UTF-8 bytes from the line's start, 1-based) as the
    /// Characters of the user's `line` that kvo-run counts columns in, as
    /// scenarios and the rewriter's own remarks do: the caret after `café`
    /// or a CJK name then stands under the place swiftc means. A column
    /// inside a Character (or past the line) is that Character's (or the
    /// end's).
    static func characterColumn(_ byteColumn: Int, in line: String) -> Int {
        let bytes = byteColumn - 1
        var counted = 0
        var column = 1
        for character in line {
            let size = character.utf8.count
            if counted + size > bytes { return column }
            counted += size
            column += 1
        }
        return column + (bytes - counted)
    }

    /// `diagnostics` about the user's file `display` (its `source`), with
    /// swiftc's byte columns as Characters; those of other files as they are.
    static func characterColumns(
        _ diagnostics: [(file: String, diagnostic: Diagnostic)], display: String, source: String
    ) -> [(file: String, diagnostic: Diagnostic)] {
        let text = SourceText(source)
        return diagnostics.map { found in
            (found.file, found.file == display ? inCharacters(found.diagnostic, source: text) : found.diagnostic)
        }
    }

    /// A diagnostic swiftc placed in `source` by byte column, placed by Character.
    static func inCharacters(_ diagnostic: Diagnostic, source: SourceText) -> Diagnostic {
        guard let line = source.line(diagnostic.location.line) else { return diagnostic }
        var converted = diagnostic
        converted.location.column = characterColumn(diagnostic.location.column, in: line)
        return converted
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: Substring()) { $0.append($1) }
    }
}
