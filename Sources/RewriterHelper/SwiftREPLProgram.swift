import SwiftParser
import SwiftSyntax

/// The REPL's Swift program (SPEC §10.1, §11.0): the entries accepted so
/// far and the new one, one after another, as one `main.swift`. Each entry
/// keeps its own name and line numbers in every diagnostic; the runtime is
/// told where the new entry starts (`_kvoEntryBegins()`), so that only what
/// it prints is shown, and where the program ends (`_kvoEntryEnds(…)`,
/// given the program's classes, for the state the REPL keeps), so that
/// kvo-run keeps only an entry whose run reached it; a top-level
/// expression echoes its value (`⇢ _kvoEcho`), in every entry alike, so that
/// a replayed entry runs exactly the code it ran before.
enum SwiftREPLProgram {
    /// The program of `entries` (the last is the new one).
    static func rewrite(_ entries: [REPLEntry]) -> REPLProgram {
        var joined = ""
        var starts: [Int] = []
        var firstLines: [Int] = []
        var line = 1
        for (index, entry) in entries.enumerated() {
            if index > 0 {
                joined += "\n"
                line += 1
            }
            starts.append(joined.utf8.count)
            firstLines.append(line)
            joined += entry.text
            line += entry.text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }
        let lines = LineMap(firstLines: firstLines, names: entries.map(\.name))
        let tree = Parser.parse(source: joined)
        let problem = straddling(tree, starts: starts, lines: lines)
        var edits: [Edit] = []
        for (index, start) in starts.enumerated() where index > 0 {
            let call = index == starts.count - 1 ? "_kvoEntryBegins()" : "_kvoEntryBoundary()"
            edits.append(Edit(start: start, end: start, text: call + "\n"))
        }
        if starts.count == 1 {
            edits.append(Edit(start: 0, end: 0, text: "_kvoEntryBegins()\n"))
        }
        let declared = REPLDeclarationCollector(tree)
        let result = SwiftRewriter.rewrite(
            tree, source: joined, lines: lines, echoes: true, edits: edits,
            last: "\n_kvoEntryEnds(\(declared.describable))\n")
        let lastFirst = firstLines.last ?? 1
        let warnings = result.warnings.compactMap { warning -> RewriterRemark? in
            guard warning.line >= lastFirst else { return nil }
            return RewriterRemark(
                message: warning.message, line: warning.line - lastFirst + 1, column: warning.column,
                length: warning.length)
        }
        return REPLProgram(
            source: result.source, joined: joined, firstLines: firstLines, warnings: warnings, problem: problem,
            declarations: declared.declarations)
    }

    /// A top-level statement that begins in one entry and goes on into the
    /// next (`let x = 1` followed by an entry `+ 2`, or `.count`): the new
    /// entry would change what an earlier one means.
    static func straddling(_ tree: SourceFileSyntax, starts: [Int], lines: LineMap) -> RewriterRemark? {
        let converter = SourceLocationConverter(fileName: lines.names[0], tree: tree)
        for item in tree.statements {
            let begin = item.positionAfterSkippingLeadingTrivia.utf8Offset
            let end = item.endPositionBeforeTrailingTrivia.utf8Offset
            guard let start = starts.first(where: { $0 > begin && $0 < end }) else { continue }
            // The entry's first token, which Swift reads as going on with the statement before it.
            var token = item.firstToken(viewMode: .sourceAccurate)
            while let current = token, current.positionAfterSkippingLeadingTrivia.utf8Offset < start {
                token = current.nextToken(viewMode: .sourceAccurate)
            }
            let position = token?.positionAfterSkippingLeadingTrivia ?? AbsolutePosition(utf8Offset: start)
            let location = converter.location(for: position)
            let statement = converter.location(for: item.positionAfterSkippingLeadingTrivia)
            let (name, line) = lines.locate(statement.line)
            let (_, shownLine) = lines.locate(location.line)
            return RewriterRemark(
                message:
                    "Swift reads this entry as the rest of the statement at \(name):\(line):\(statement.column) "
                    + "(an entry must stand on its own; put the two together in one entry, or start this one differently)",
                line: shownLine, column: location.column, length: 1)
        }
        return nil
    }

    // MARK: Reading an entry

    /// Whether `text` stops where Swift would go on to the next line: a
    /// bracket, a brace, a multi-line string or a block comment still open,
    /// an operator or a `,` with nothing after it. A one-line string left
    /// open is an error, not an entry to go on with.
    static func isIncomplete(_ text: String) -> Bool {
        let tree = Parser.parse(source: text)
        let lastPresent = tree.endOfFileToken.previousToken(viewMode: .sourceAccurate)
        let end = lastPresent?.endPositionBeforeTrailingTrivia ?? AbsolutePosition(utf8Offset: 0)
        for token in tree.tokens(viewMode: .all) where token.presence == .missing {
            guard token.positionAfterSkippingLeadingTrivia >= end else { continue }
            switch token.tokenKind {
            case .stringQuote, .singleQuote, .rawStringPoundDelimiter, .endOfFile: continue
            default: return true
            }
        }
        // An unterminated `/*` runs to the end of the text.
        for token in Array(tree.tokens(viewMode: .sourceAccurate)) + [tree.endOfFileToken] {
            for piece in [token.leadingTrivia, token.trailingTrivia].joined() {
                switch piece {
                case .blockComment(let comment), .docBlockComment(let comment):
                    if !comment.hasSuffix("*/") { return true }
                case .unexpectedText(let unexpected):
                    if unexpected.hasPrefix("/*") { return true }
                default:
                    break
                }
            }
        }
        return false
    }

    // MARK: Declaring again

    /// The earlier entries without the top-level declarations that `entry`
    /// declares again (a type of the same name, a function of the same name,
    /// labels and parameter types): a later declaration replaces the earlier
    /// one (SPEC §10.1), and Swift would reject two. An entry left with no
    /// statement is left out. Returns the entries and the names replaced.
    static func replacingDeclarations(
        in earlier: [REPLEntry], by entry: String
    ) -> (
        entries: [REPLEntry], replaced: [String]
    ) {
        let declared = Dictionary(
            declarations(Parser.parse(source: entry)).map { ($0.key, $0.name) }, uniquingKeysWith: { first, _ in first }
        )
        guard !declared.isEmpty else { return (earlier, []) }
        var replaced: [String] = []
        var result: [REPLEntry] = []
        for old in earlier {
            let tree = Parser.parse(source: old.text)
            let found = declarations(tree).filter { declared[$0.key] != nil }
            guard !found.isEmpty else {
                result.append(old)
                continue
            }
            var bytes = Array(old.text.utf8)
            for declaration in found.reversed() {
                bytes.removeSubrange(declaration.range)
                if !replaced.contains(declaration.name) { replaced.append(declaration.name) }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if Parser.parse(source: text).statements.isEmpty { continue }
            result.append(REPLEntry(text: text, name: old.name))
        }
        return (result, replaced)
    }

    struct Declaration {
        /// What makes two declarations the same: kind, name, and a function's labels and parameter types.
        let key: String
        /// How the user names it (`Account`, `greet(_:)`).
        let name: String
        /// Its bytes in the entry, `;` included.
        let range: Range<Int>
    }

    static func declarations(_ tree: SourceFileSyntax) -> [Declaration] {
        tree.statements.compactMap { item -> Declaration? in
            guard case .decl(let decl) = item.item else { return nil }
            let range =
                item.positionAfterSkippingLeadingTrivia.utf8Offset..<item.endPositionBeforeTrailingTrivia.utf8Offset
            let typeName: String?
            if let node = decl.as(ClassDeclSyntax.self) {
                typeName = node.name.text
            } else if let node = decl.as(StructDeclSyntax.self) {
                typeName = node.name.text
            } else if let node = decl.as(EnumDeclSyntax.self) {
                typeName = node.name.text
            } else if let node = decl.as(ProtocolDeclSyntax.self) {
                typeName = node.name.text
            } else if let node = decl.as(ActorDeclSyntax.self) {
                typeName = node.name.text
            } else if let node = decl.as(TypeAliasDeclSyntax.self) {
                typeName = node.name.text
            } else {
                typeName = nil
            }
            if let typeName { return Declaration(key: "type " + typeName, name: typeName, range: range) }
            guard let function = decl.as(FunctionDeclSyntax.self) else { return nil }
            let parameters = function.signature.parameterClause.parameters
            let labels = parameters.map { ($0.firstName.text) + ":" }.joined()
            let types = parameters.map { $0.type.trimmedDescription }.joined(separator: ",")
            let name = function.name.text + "(" + labels + ")"
            return Declaration(key: "func " + name + " " + types, name: name, range: range)
        }
    }
}
