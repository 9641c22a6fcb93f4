import KVOCore

#if canImport(Glibc)
import Glibc
#endif

/// Writes a compiled program's events in kvo-run's formats (SPEC §8): the
/// text trace, or JSON Lines. It repeats the rules of KVORun's `TextFormat`
/// and `JSONFormat` for the events a program produces, over stdio, so that
/// trace lines and the program's own `print`s and `dump`s stay in order.
/// (KVORun's writers live beside the interpreter; this module must not link it.)
final class _KVOEventOutput: EventSink {
    let json: Bool
    init(json: Bool) { self.json = json }

    private func out(_ text: String) {
        fputs(text, stdout)
    }

    /// Text lines nested deeper than `maxIndentDepth` not written since the
    /// last one that was: a runaway loop's thousand lines would bury the rest.
    private var linesCut = 0
    static let maxIndentDepth = 100

    private func writeCutLines() {
        guard linesCut > 0 else { return }
        let what = linesCut == 1 ? "1 line" : "\(linesCut) lines"
        linesCut = 0
        out(
            Self.indent(Self.maxIndentDepth)
                + "… \(what) nested deeper than \(Self.maxIndentDepth) handlers not shown (--format json shows every event)\n"
        )
    }

    func emit(_ event: consuming Event) {
        if json {
            out(Self.json(event) + "\n")
            return
        }
        if event.depth > Self.maxIndentDepth {
            if case .print(let text, _) = event {
                linesCut += text.split(separator: "\n", omittingEmptySubsequences: false).count
            } else {
                linesCut += 1
            }
            return
        }
        writeCutLines()
        switch event {
        case .notify(let object, let keyPath, let observer, let change, let context, let depth):
            var line = Self.indent(depth)
            line += object.name + "." + ControlCharacters.escaping(keyPath) + " → " + observer.name + " "
            change.describe(into: &line)
            if let context { line += " context: " + context.name }
            out(line + "\n")
        case .print(let text, let depth):
            out(Self.indented(text, depth) + "\n")
        case .exception(let exception, let caught):
            let reason = ControlCharacters.escaping(exception.reason, keepingNewlines: true)
            if caught {
                out(Self.indented("*** \(exception.name) (caught): \(reason)", exception.depth) + "\n")
            } else {
                out("*** Terminating app due to uncaught exception '\(exception.name)', reason: '\(reason)'\n")
            }
        case .observationInfo(let object, _, let depth):
            let dump = ControlCharacters.escaping(object.observationInfoDescription ?? "nil", keepingNewlines: true)
            out(Self.indented(dump, depth) + "\n")
        case .explain, .graph:
            break
        }
    }

    func uncaught(_ exception: CocoaException) {
        writeCutLines()
        emit(.exception(exception, caught: false))
        fflush(stdout)
    }

    func error(_ message: String, line: Int, column: Int, source: String?, file: String) {
        diagnostic("error", message, line: line, column: column, source: source, file: file)
    }

    func warning(_ message: String, line: Int, column: Int, source: String?, file: String) {
        diagnostic("warning", message, line: line, column: column, source: source, file: file)
    }

    func note(_ message: String, line: Int, column: Int, source: String?, file: String) {
        if json { return }  // JSON Lines has no note event
        diagnostic("note", message, line: line, column: column, source: source, file: file)
    }

    /// `file:line:column: severity: message`, the source line and a caret,
    /// on standard error; a JSON event on standard output with `--format json`.
    private func diagnostic(
        _ severity: String, _ message: String, line: Int, column: Int, source: String?, file: String
    ) {
        if json {
            out(
                "{\"event\":\(Self.string(severity)),\"message\":\(Self.string(message)),\"line\":\(line),\"column\":\(column)}\n"
            )
            fflush(stdout)
            return
        }
        writeCutLines()
        fflush(stdout)
        var text = "\(file):\(line):\(column): \(severity): \(message)\n"
        if let source {
            text += source + "\n"
            var caret = ""
            for character in source.prefix(max(0, column - 1)) { caret += character == "\t" ? "\t" : " " }
            text += caret + "^\n"
        }
        fputs(text, stderr)
        fflush(stderr)
    }

    // MARK: Text

    static func indent(_ depth: Int) -> String {
        String(repeating: "  ", count: min(max(0, depth), 100))
    }

    static func indented(_ text: String, _ depth: Int) -> String {
        guard depth > 0 else { return text }
        let pad = indent(depth)
        return pad + text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + pad)
    }

    // MARK: JSON Lines

    static func json(_ event: Event) -> String {
        switch event {
        case .notify(let observed, let keyPath, let observer, let change, let context, let depth):
            return object([
                ("event", string("notify")), ("object", string(observed.name)), ("keyPath", string(keyPath)),
                ("observer", string(observer.name)), ("change", encode(change)),
                ("context", context.map { string($0.name) } ?? "null"), ("depth", String(depth)),
            ])
        case .print(let text, let depth):
            return object([("event", string("print")), ("text", string(text)), ("depth", String(depth))])
        case .exception(let exception, let caught):
            var pairs = [
                ("event", string("exception")), ("name", string(exception.name)),
                ("reason", string(exception.reason)), ("caught", caught ? "true" : "false"),
                ("depth", String(exception.depth)),
            ]
            if let line = exception.line { pairs.append(("line", String(line))) }
            if let column = exception.column { pairs.append(("column", String(column))) }
            return object(pairs)
        case .observationInfo(let target, let observances, _):
            let items = observances.map { item in
                object([
                    ("observer", string(item.observer)), ("keyPath", string(item.keyPath)),
                    ("options", "[" + item.options.names.map(string).joined(separator: ",") + "]"),
                    ("context", item.context.map { string($0.name) } ?? "null"),
                ])
            }
            return object([
                ("event", string("observationInfo")), ("object", string(target.name)),
                ("observances", "[" + items.joined(separator: ",") + "]"),
            ])
        case .explain(_, let depth), .graph(_, let depth):
            return object([("event", string("note")), ("depth", String(depth))])
        }
    }

    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func encode(_ change: Change) -> String {
        var pairs: [(String, String)] = []
        if let indexes = change.indexes {
            pairs.append(("indexes", "[" + indexes.map(String.init).joined(separator: ",") + "]"))
        }
        pairs.append(("kind", String(change.kind.rawValue)))
        if let new = change.new { pairs.append(("new", encode(new))) }
        if change.isPrior { pairs.append(("notificationIsPrior", "true")) }
        if let old = change.old { pairs.append(("old", encode(old))) }
        return object(pairs)
    }

    static func encode(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return number.isFinite ? Value.describe(double: number) : string(String(number))
        case .string(let text): return string(text)
        case .object(let target):
            return object([("object", string(target.name)), ("class", string(target.cls.runtimeName))])
        case .array(let elements): return "[" + elements.map(encode).joined(separator: ",") + "]"
        case .set(let set): return object([("set", "[" + set.elements.map(encode).joined(separator: ",") + "]")])
        default: return string(value.collectionDescription)
        }
    }

    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || ControlCharacters.mustEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                if scalar.value > 0xFFFF {
                    result += "\\u{\(hex)}"
                } else {
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
