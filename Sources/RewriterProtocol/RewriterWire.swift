/// How `RewriterRequest` and `RewriterResponse` travel over the pipe between
/// kvo-run and the rewriter helper: netstrings (`LENGTH:BYTES,`), one field
/// after another, the whole message itself one netstring. Both sides encode
/// and decode here and nowhere else.
///
/// Hand-rolled rather than Codable with JSON: kvo-run does not link
/// Foundation's JSON coders (every kilobyte of code costs its start-up), the
/// messages are a few strings, numbers and lists, and netstrings carry any
/// bytes (a NUL, invalid UTF-8 read leniently) without escaping.
public enum RewriterWire {
    public struct Malformed: Error, Equatable {
        public let what: String
    }

    // MARK: Messages

    public static func encode(_ request: RewriterRequest) -> [UInt8] {
        var fields = Fields()
        switch request {
        case .rewrite(let source, let fileName):
            fields.add("rewrite")
            fields.add(source)
            fields.add(fileName)
        case .replProgram(let entries):
            fields.add("repl")
            fields.add(entries)
        case .isIncomplete(let text):
            fields.add("incomplete")
            fields.add(text)
        case .replacingDeclarations(let earlier, let entry):
            fields.add("replace")
            fields.add(earlier)
            fields.add(entry)
        }
        return fields.framed
    }

    public static func decodeRequest(_ payload: [UInt8]) throws -> RewriterRequest {
        var reader = Reader(payload)
        let kind = try reader.string()
        switch kind {
        case "rewrite":
            return .rewrite(source: try reader.string(), fileName: try reader.string())
        case "repl":
            return .replProgram(try reader.entries())
        case "incomplete":
            return .isIncomplete(try reader.string())
        case "replace":
            return .replacingDeclarations(earlier: try reader.entries(), by: try reader.string())
        default:
            throw Malformed(what: "a request of unknown kind '\(kind)'")
        }
    }

    public static func encode(_ response: RewriterResponse) -> [UInt8] {
        var fields = Fields()
        switch response {
        case .rewritten(let program):
            fields.add("rewritten")
            fields.add(program.source)
            fields.add(program.warnings)
            fields.add(program.errors)
            fields.add(program.keyPaths)
            fields.add(program.knownKeys.count)
            for key in program.knownKeys { fields.add(key) }
        case .replProgram(let program):
            fields.add("repl")
            fields.add(program.source)
            fields.add(program.joined)
            fields.add(program.firstLines.count)
            for line in program.firstLines { fields.add(line) }
            fields.add(program.warnings)
            fields.add(program.problem.map { [$0] } ?? [])
            fields.add(program.declarations)
        case .isIncomplete(let answer):
            fields.add("incomplete")
            fields.add(answer ? 1 : 0)
        case .replacingDeclarations(let entries, let replaced):
            fields.add("replace")
            fields.add(entries)
            fields.add(replaced.count)
            for name in replaced { fields.add(name) }
        case .failed(let why):
            fields.add("failed")
            fields.add(why)
        }
        return fields.framed
    }

    public static func decodeResponse(_ payload: [UInt8]) throws -> RewriterResponse {
        var reader = Reader(payload)
        let kind = try reader.string()
        switch kind {
        case "rewritten":
            return .rewritten(
                RewrittenProgram(
                    source: try reader.string(), warnings: try reader.remarks(), errors: try reader.remarks(),
                    keyPaths: try reader.keyPaths(),
                    knownKeys: try (0..<reader.count()).map { _ in try reader.string() }))
        case "repl":
            let source = try reader.string()
            let joined = try reader.string()
            let firstLines = try (0..<reader.count()).map { _ in try reader.int() }
            let warnings = try reader.remarks()
            let problem = try reader.remarks().first
            let declarations = try reader.declarations()
            return .replProgram(
                REPLProgram(
                    source: source, joined: joined, firstLines: firstLines, warnings: warnings, problem: problem,
                    declarations: declarations))
        case "incomplete":
            return .isIncomplete(try reader.int() != 0)
        case "replace":
            let entries = try reader.entries()
            let replaced = try (0..<reader.count()).map { _ in try reader.string() }
            return .replacingDeclarations(entries: entries, replaced: replaced)
        case "failed":
            return .failed(try reader.string())
        default:
            throw Malformed(what: "an answer of unknown kind '\(kind)'")
        }
    }

    // MARK: Framing

    /// The payload of the first whole message at the start of `buffer`, and
    /// how many bytes it took; nil while the message is not all there yet.
    public static func unframe(_ buffer: [UInt8]) throws -> (payload: [UInt8], consumed: Int)? {
        var reader = Reader(buffer)
        guard let field = try reader.fieldIfComplete() else { return nil }
        return (Array(field), reader.offset)
    }

    // MARK: Fields

    struct Fields {
        var bytes: [UInt8] = []

        mutating func add(_ string: String) { add(bytes: Array(string.utf8)) }

        mutating func add(_ number: Int) { add(String(number)) }

        mutating func add(bytes field: [UInt8]) {
            bytes += Array(String(field.count).utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes += field
            bytes.append(UInt8(ascii: ","))
        }

        mutating func add(_ entries: [REPLEntry]) {
            add(entries.count)
            for entry in entries {
                add(entry.text)
                add(entry.name)
            }
        }

        mutating func add(_ declarations: REPLDeclarations) {
            add(declarations.names)
            add(declarations.members.count)
            for (type, members) in declarations.members.sorted(by: { $0.key < $1.key }) {
                add(type)
                add(members)
            }
            add(declarations.superclasses)
            add(declarations.variableTypes)
        }

        mutating func add(_ strings: [String]) {
            add(strings.count)
            for string in strings { add(string) }
        }

        mutating func add(_ pairs: [String: String]) {
            add(pairs.count)
            for (key, value) in pairs.sorted(by: { $0.key < $1.key }) {
                add(key)
                add(value)
            }
        }

        mutating func add(_ keyPaths: [RewriterKeyPath]) {
            add(keyPaths.count)
            for keyPath in keyPaths {
                add(keyPath.call)
                add(keyPath.path)
                add(keyPath.line)
                add(keyPath.column)
                add(keyPath.length)
            }
        }

        mutating func add(_ remarks: [RewriterRemark]) {
            add(remarks.count)
            for remark in remarks {
                add(remark.message)
                add(remark.line)
                add(remark.column)
                add(remark.length)
            }
        }

        /// The fields as one netstring.
        var framed: [UInt8] {
            var whole = Fields()
            whole.add(bytes: bytes)
            return whole.bytes
        }
    }

    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The next field, or nil when the bytes end before it does.
        mutating func fieldIfComplete() throws -> ArraySlice<UInt8>? {
            var length = 0
            var index = offset
            while true {
                guard index < bytes.count else { return nil }
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: ":") { break }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), index - offset <= 12 else {
                    throw Malformed(what: "a field without its length")
                }
                length = length * 10 + Int(byte - UInt8(ascii: "0"))
            }
            guard index - offset > 1 else { throw Malformed(what: "a field without its length") }
            guard bytes.count - index > length else { return nil }
            guard bytes[index + length] == UInt8(ascii: ",") else { throw Malformed(what: "a field without its end") }
            offset = index + length + 1
            return bytes[index..<(index + length)]
        }

        mutating func field() throws -> ArraySlice<UInt8> {
            guard let field = try fieldIfComplete() else { throw Malformed(what: "a message cut short") }
            return field
        }

        mutating func string() throws -> String { String(decoding: try field(), as: UTF8.self) }

        mutating func int() throws -> Int {
            let text = try string()
            guard let number = Int(text) else { throw Malformed(what: "'\(text)' where a number belongs") }
            return number
        }

        /// A list's length: never more than the bytes left could hold.
        mutating func count() throws -> Int {
            let number = try int()
            guard number >= 0, number <= bytes.count - offset else { throw Malformed(what: "a list of \(number)") }
            return number
        }

        mutating func entries() throws -> [REPLEntry] {
            try (0..<count()).map { _ in REPLEntry(text: try string(), name: try string()) }
        }

        mutating func strings() throws -> [String] {
            try (0..<count()).map { _ in try string() }
        }

        mutating func pairs() throws -> [String: String] {
            let pairs = try (0..<count()).map { _ in (try string(), try string()) }
            return Dictionary(pairs, uniquingKeysWith: { _, last in last })
        }

        mutating func declarations() throws -> REPLDeclarations {
            let names = try strings()
            let members = try (0..<count()).map { _ in (try string(), try strings()) }
            return REPLDeclarations(
                names: names, members: Dictionary(members, uniquingKeysWith: { _, last in last }),
                superclasses: try pairs(), variableTypes: try pairs())
        }

        mutating func keyPaths() throws -> [RewriterKeyPath] {
            try (0..<count()).map { _ in
                RewriterKeyPath(
                    call: try string(), path: try string(), line: try int(), column: try int(), length: try int())
            }
        }

        mutating func remarks() throws -> [RewriterRemark] {
            try (0..<count()).map { _ in
                RewriterRemark(message: try string(), line: try int(), column: try int(), length: try int())
            }
        }
    }
}
