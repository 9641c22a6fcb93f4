#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KVOCore

/// Where rendered output goes: a file descriptor with a large buffer, so a
/// million notification lines cost a few hundred writes, not a million.
///
/// The buffer is a plain block of bytes copied into with `memcpy`: appending
/// to an `[UInt8]` costs a uniqueness check and a generic copy per piece, and a
/// notification line has a dozen pieces.
public final class OutputWriter {
    private let descriptor: Int32
    private let storage: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    /// In-memory writers (golden tests, embedding) keep everything here.
    public private(set) var captured: [UInt8] = []
    private let capturing: Bool
    /// Flush after every write (a terminal, where the user is watching).
    public var flushesEachLine: Bool
    /// Why output stopped: a failed write (`cannot write standard output: No
    /// space left on device`) or a capture past `captureLimit`. From then on
    /// writes are dropped, and the running scenario is asked to stop
    /// (`StopRequest.outputFailed`): a print loop into a closed pipe must end.
    public private(set) var failure: String?
    /// Most bytes an in-memory writer keeps (golden tests): a looping
    /// scenario would otherwise fill memory.
    public var captureLimit = OutputWriter.defaultCaptureLimit
    public static let defaultCaptureLimit = 16 << 20
    /// Names the stream in failure messages.
    private let streamName: String

    public init(descriptor: Int32, bufferSize: Int = 1 << 16) {
        self.descriptor = descriptor
        self.capacity = max(bufferSize, 256)
        self.storage = .allocate(capacity: capacity)
        self.flushesEachLine = isatty(descriptor) != 0
        self.capturing = false
        self.streamName = descriptor == 1 ? "standard output" : descriptor == 2 ? "standard error" : "descriptor \(descriptor)"
    }

    /// A writer that keeps what is written, for `capturedText`.
    public init(capturing: Void) {
        self.descriptor = -1
        self.capacity = 1 << 16
        self.storage = .allocate(capacity: capacity)
        self.flushesEachLine = false
        self.capturing = true
        self.streamName = "captured output"
    }

    deinit {
        flush()
        storage.deallocate()
    }

    public var capturedText: String {
        flush()
        return String(decoding: captured, as: UTF8.self)
    }

    public func write(_ text: String) {
        append(text)
        if flushesEachLine { flush() }
    }

    public func flush() {
        guard count > 0 else { return }
        send(UnsafeRawBufferPointer(start: storage, count: count))
        count = 0
    }

    /// Copies `bytes` into the buffer, writing the buffer out first when full.
    @inline(__always)
    private func append(bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity {
            flush()
            if bytes.count > capacity { return send(bytes) }
        }
        UnsafeMutableRawPointer(storage + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Passes bytes on: to the descriptor, or to `captured`.
    private func send(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        if capturing {
            if captured.count + bytes.count > captureLimit {
                captured.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(max(0, captureLimit - captured.count))))
                fail("the scenario printed more than \(captureLimit >> 20) MiB; its output was cut there")
                return
            }
            captured.append(contentsOf: bytes)
            return
        }
        let failure = Files.writeFully(bytes, to: descriptor)
        if failure != 0 { fail("cannot write \(streamName): \(String(cString: strerror(failure)))") }
    }

    /// Records the first failure and asks the running scenario to stop.
    private func fail(_ message: String) {
        failure = message
        count = 0
        kvoInterruptRequested = StopRequest.outputFailed
    }

    /// One text-format notification line, appended as bytes: building a String
    /// first costs several times more than the notification itself.
    func writeNotification(_ object: KVOObject, _ keyPath: String, _ observer: KVOObject, _ change: Change,
                           _ context: Context?, _ depth: Int) {
        if depth > 0 {
            if depth <= TextFormat.maxIndentDepth {
                for _ in 0..<depth { appendLiteral("  ") }
            } else {
                append(TextFormat.indent(depth))
            }
        }
        append(object.name)
        appendLiteral(".")
        appendEscapingControls(keyPath)
        appendLiteral(" → ")
        append(observer.name)
        appendLiteral(" {")
        if let indexes = change.indexes {
            appendLiteral("indexes = (")
            for (position, index) in indexes.enumerated() {
                if position > 0 { appendLiteral(", ") }
                append(index)
            }
            appendLiteral("); ")
        }
        appendLiteral("kind = ")
        append(change.kind.rawValue)
        if let new = change.new {
            appendLiteral("; new = ")
            append(new)
        }
        if change.isPrior { appendLiteral("; notificationIsPrior = 1") }
        if let old = change.old {
            appendLiteral("; old = ")
            append(old)
        }
        appendLiteral("}")
        if let context {
            appendLiteral(" context: ")
            append(context.name)
        }
        appendLiteral("\n")
        if flushesEachLine { flush() }
    }

    /// A literal's bytes, straight from the binary: no String to unpack.
    @inline(__always)
    private func appendLiteral(_ literal: StaticString) {
        append(bytes: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private func append(_ text: String) {
        // Native strings (and small ones) lend their bytes without a copy.
        if text.utf8.withContiguousStorageIfAvailable({ append(bytes: UnsafeRawBufferPointer($0)) }) != nil { return }
        var text = text
        text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// `text` with `ControlCharacters` escaped: key paths come from script
    /// strings. One scan of the bytes; only a line that has such a byte pays more.
    private func appendEscapingControls(_ text: String) {
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return false }
            append(bytes: UnsafeRawBufferPointer(bytes))
            return true
        }
        if plain == true { return }
        append(ControlCharacters.escaping(text))
    }

    private func append(_ number: Int) {
        guard number >= 0 else { return append(String(number)) }
        // Digits straight into the buffer (capacity is at least 256 bytes).
        var digits = 1
        var probe = number
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        if count + digits > capacity { flush() }
        var rest = number
        var position = count + digits
        repeat {
            position -= 1
            storage[position] = UInt8(truncatingIfNeeded: 48 + rest % 10)
            rest /= 10
        } while rest > 0
        count += digits
    }

    private func append(_ value: Value) {
        switch value {
        case .int(let number): append(number)
        case .null: append("<null>")
        case .object(let object):
            append("<")
            append(object.cls.name)
            append(": ")
            append(object.name)
            append(">")
        default: append(value.collectionDescription)
        }
    }

}

/// `--format`.
public enum OutputFormatKind: String, Sendable, CaseIterable {
    case text, json
}

/// Renders events, diagnostics and runtime errors in one of the two formats of
/// SPEC §8, counting notifications instead of printing them with `--quiet`.
public final class EventRenderer: EventSink {
    public let format: OutputFormatKind
    public let out: OutputWriter
    public let err: OutputWriter
    public var quiet = false
    public var color = false
    public private(set) var suppressedNotifications = 0

    public init(format: OutputFormatKind, out: OutputWriter, err: OutputWriter) {
        self.format = format
        self.out = out
        self.err = err
    }

    public func notify(object: KVOObject, keyPath: String, observer: KVOObject, change: Change, context: Context?, depth: Int) {
        if format == .text && !color && !quiet {
            // The trace's hot path: bytes straight into the output buffer.
            out.writeNotification(object, keyPath, observer, change, context, depth)
        } else {
            emit(.notify(object: object, keyPath: keyPath, observer: observer, change: change, context: context, depth: depth))
        }
    }

    public func emit(_ event: Event) {
        if quiet, case .notify = event {
            suppressedNotifications += 1
            return
        }
        switch format {
        case .text:
            if !color, case .notify(let object, let keyPath, let observer, let change, let context, let depth) = event {
                // The trace's hot path: bytes straight into the output buffer.
                out.writeNotification(object, keyPath, observer, change, context, depth)
                return
            }
            out.write(TextFormat.render(event, color: color))
        case .json: out.write(JSONFormat.render(event) + "\n")
        }
    }



    /// A diagnostic about the script (§9): text on stderr, or a JSON event on stdout.
    public func report(_ diagnostic: Diagnostic, file: String, source: SourceText) {
        switch format {
        case .text:
            out.flush()
            err.write(diagnostic.render(file: file, source: source, color: color) + "\n")
            err.flush()
        case .json:
            out.write(JSONFormat.object([
                ("event", JSONFormat.string(diagnostic.severity.rawValue)),
                ("message", JSONFormat.string(diagnostic.message)),
                ("line", String(diagnostic.location.line)),
                ("column", String(diagnostic.location.column)),
            ]) + "\n")
        }
    }
}

/// The text format of SPEC §8.1.
public enum TextFormat {
    static let reset = "\u{1B}[0m"

    public static func render(_ event: Event, color: Bool) -> String {
        func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\(reset)" : text }
        switch event {
        case .notify(let object, let keyPath, let observer, let change, let context, let depth):
            if !color {
                var line = ""
                appendNotification(object, keyPath, observer, change, context, depth, to: &line)
                return line
            }
            var line = indent(depth) + paint(object.name, "36") + "." + paint(ControlCharacters.escaping(keyPath), "1") + " → " + paint(observer.name, "33")
                + " " + paint(change.description, "32")
            if let context { line += " context: " + paint(context.name, "35") }
            return line + "\n"
        case .print(let text, let depth):
            return indented(text, depth) + "\n"
        case .exception(let exception, let caught):
            // Reasons quote keys and values from the script: escaped, as in a
            // change dictionary. Only `print` writes a string raw.
            let name = ControlCharacters.escaping(exception.name, keepingNewlines: true)
            let reason = ControlCharacters.escaping(exception.reason, keepingNewlines: true)
            if caught {
                return indented(paint("*** \(name) (caught): ", "31") + reason, exception.depth) + "\n"
            }
            return paint("*** Terminating app due to uncaught exception '\(name)', reason: '\(reason)'", "1;31") + "\n"
        case .observationInfo(let object, _, let depth):
            return indented(ControlCharacters.escaping(object.observationInfoDescription ?? "nil", keepingNewlines: true), depth) + "\n"
        }
    }

    /// `OBJECT.KEYPATH → OBSERVER {CHANGE} context: CONTEXT` and a newline.
    static func appendNotification(_ object: KVOObject, _ keyPath: String, _ observer: KVOObject, _ change: Change,
                                   _ context: Context?, _ depth: Int, to line: inout String) {
        if depth > 0 { line += indent(depth) }
        line += object.name
        line += "."
        line += ControlCharacters.escaping(keyPath)
        line += " → "
        line += observer.name
        line += " "
        change.describe(into: &line)
        if let context {
            line += " context: "
            line += context.name
        }
        line += "\n"
    }

    /// Indentation stops growing here: with `--max-depth 100000` two spaces
    /// per level would make each deep line up to 200 KB and the output
    /// quadratic in the depth.
    static let maxIndentDepth = 100

    /// Two spaces per depth; past `maxIndentDepth`, that depth's indentation
    /// and then the depth as a number: `[depth 5000] ` after 200 spaces.
    /// JSON keeps the exact depth in its `depth` field.
    static func indent(_ depth: Int) -> String {
        if depth <= maxIndentDepth { return String(repeating: "  ", count: max(0, depth)) }
        return String(repeating: "  ", count: maxIndentDepth) + "[depth \(depth)] "
    }

    static func indented(_ text: String, _ depth: Int) -> String {
        guard depth > 0 else { return text }
        let pad = indent(depth)
        return pad + text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + pad)
    }
}

/// The JSON Lines format of SPEC §8.2, written by hand: the events are flat
/// and their keys fixed, and a generic encoder would cost a dictionary per line.
public enum JSONFormat {
    public static func render(_ event: Event) -> String {
        switch event {
        case .notify(let object, let keyPath, let observer, let change, let context, let depth):
            return object_([
                ("event", string("notify")), ("object", string(object.name)), ("keyPath", string(keyPath)),
                ("observer", string(observer.name)), ("change", encode(change)),
                ("context", context.map { string($0.name) } ?? "null"), ("depth", String(depth)),
            ])
        case .print(let text, let depth):
            return object_([("event", string("print")), ("text", string(text)), ("depth", String(depth))])
        case .exception(let exception, let caught):
            return object_([
                ("event", string("exception")), ("name", string(exception.name)), ("reason", string(exception.reason)),
                ("caught", caught ? "true" : "false"), ("depth", String(exception.depth)),
            ])
        case .observationInfo(let object, let observances, _):
            let items = observances.map { item in
                object_([
                    ("observer", string(item.observer)), ("keyPath", string(item.keyPath)),
                    ("options", "[" + item.options.names.map(string).joined(separator: ",") + "]"),
                    ("context", item.context.map { string($0.name) } ?? "null"),
                ])
            }
            return object_([("event", string("observationInfo")), ("object", string(object.name)),
                            ("observances", "[" + items.joined(separator: ",") + "]")])
        }
    }

    public static func object(_ pairs: [(String, String)]) -> String { object_(pairs) }

    private static func object_(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func encode(_ change: Change) -> String {
        var pairs: [(String, String)] = []
        if let indexes = change.indexes { pairs.append(("indexes", "[" + indexes.map(String.init).joined(separator: ",") + "]")) }
        pairs.append(("kind", String(change.kind.rawValue)))
        if let new = change.new { pairs.append(("new", encode(new))) }
        if change.isPrior { pairs.append(("notificationIsPrior", "true")) }
        if let old = change.old { pairs.append(("old", encode(old))) }
        return object_(pairs)
    }

    public static func encode(_ value: Value) -> String {
        var output = ""
        encode(value, into: &output)
        return output
    }

    /// Arrays and sets are encoded with an explicit stack into one buffer, as
    /// their text descriptions are: nesting costs no native stack, a million
    /// levels cost linear time, and past `Value.descriptionLimit` bytes (an
    /// array holding itself twice per level grows exponentially) the rest is
    /// replaced by `"…"`.
    static func encode(_ value: Value, into output: inout String) {
        Value.writeNested(value, into: &output, separator: ",", cut: string("…"), open: { value, output in
            switch value {
            case .array(let values):
                output += "["
                return (values, "]")
            case .set(let set):
                output += "{\"set\":["
                return (set.sorted, "]}")
            default:
                return nil
            }
        }, scalar: scalar)
    }

    private static func scalar(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let int): return String(int)
        // JSON has no NaN or infinity: the words the text format prints, as strings.
        case .double(let double): return double.isFinite ? Value.describe(double: double) : string(Value.describe(double: double))
        case .string(let text): return string(text)
        case .object(let object): return object_([("object", string(object.name)), ("class", string(object.cls.name))])
        case .array, .set: return encode(value)
        case .change(let change): return encode(change)
        case .context(let context): return string(context.name)
        case .option, .setMutation, .arrayProxy, .setProxy, .observationInfo, .exception:
            return string(value.collectionDescription)
        }
    }

    public static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where ControlCharacters.mustEscape(scalar):
                // Control and bidi characters are valid JSON raw, but a JSON
                // line read on a terminal must not act on it.
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
