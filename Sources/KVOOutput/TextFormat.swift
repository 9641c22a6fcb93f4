import KVOCore

/// The text format of docs/language.md#text-format: kvo-run's writer
/// (KVORun's `EventRenderer`) and a compiled Swift program's runtime
/// (KVOFoundation) both write their lines with it.
public enum TextFormat {
    public static func render(_ event: Event, color: Bool) -> String {
        switch event {
        case .notify(let object, let keyPath, let observer, let change, let context, let depth):
            var line = ""
            writeNotification(object, keyPath, observer, change, context, depth, color: color, to: &line)
            return line + "\n"
        case .print(let text, let depth):
            return indented(text, depth) + "\n"
        case .exception(let exception, let caught):
            // Reasons quote keys and values from the script: escaped, as in a
            // change dictionary. Only `print` writes a string raw.
            let name = ControlCharacters.escaping(exception.name, keepingNewlines: true)
            let reason = ControlCharacters.escaping(exception.reason, keepingNewlines: true)
            if caught {
                return indented(Paint.red("*** \(name) (caught): ", if: color) + reason, exception.depth) + "\n"
            }
            return uncaught(exception, stopping: .app, color: color)
        case .observationInfo(let object, _, let depth):
            return indented(
                ControlCharacters.escaping(object.observationInfoDescription ?? "nil", keepingNewlines: true), depth)
                + "\n"
        case .explain(let step, let depth):
            return ExplainFormat.render(step, depth: depth)
        case .graph(let objects, let depth):
            return indented(String(ObservationGraph.dot(from: objects).dropLast()), depth) + "\n"
        }
    }

    /// Apple's words for an exception that ends the app; where the run goes
    /// on (`--keep-going`, the REPL), the same words without "Terminating app".
    public static func uncaught(_ exception: CocoaException, stopping: UncaughtStop, color: Bool) -> String {
        let name = ControlCharacters.escaping(exception.name, keepingNewlines: true)
        let reason = ControlCharacters.escaping(exception.reason, keepingNewlines: true)
        let stopped: String
        switch stopping {
        case .app: stopped = "Terminating app due to"
        case .statement: stopped = "Statement stopped by"
        case .entry: stopped = "Entry stopped by"
        }
        let text = "*** \(stopped) uncaught exception '\(name)', reason: '\(reason)'"
        return Paint.boldRed(text, if: color) + "\n"
    }

    /// `OBJECT.KEYPATH → OBSERVER {CHANGE} context: CONTEXT`, without the
    /// newline: the only place a notification's text line is built. With
    /// `color`, the parts are painted with ANSI escapes.
    /// Inlinable: the writer's per-notification path specialises it for
    /// its own buffer, across the module boundary.
    @inlinable @inline(__always)
    public static func writeNotification<Sink: LineSink>(
        _ object: KVOObject, _ keyPath: String, _ observer: KVOObject,
        _ change: Change, _ context: Context?, _ depth: Int,
        color: Bool, to sink: inout Sink
    ) {
        if depth > 0 {
            if depth <= maxIndentDepth {
                for _ in 0..<depth { sink.appendLiteral("  ") }
            } else {
                sink.appendText(indent(depth))
            }
        }
        if color { sink.appendLiteral(Paint.cyan.start) }
        sink.appendText(object.name)
        if color { sink.appendLiteral(Paint.end) }
        sink.appendLiteral(".")
        if color { sink.appendLiteral(Paint.bold.start) }
        sink.appendEscapingControls(keyPath)
        if color { sink.appendLiteral(Paint.end) }
        sink.appendLiteral(" → ")
        if color { sink.appendLiteral(Paint.yellow.start) }
        sink.appendText(observer.name)
        if color { sink.appendLiteral(Paint.end) }
        sink.appendLiteral(" ")
        if color { sink.appendLiteral(Paint.green.start) }
        change.describe(into: &sink)
        if color { sink.appendLiteral(Paint.end) }
        if let context {
            sink.appendLiteral(" context: ")
            if color { sink.appendLiteral(Paint.magenta.start) }
            sink.appendText(context.name)
            if color { sink.appendLiteral(Paint.end) }
        }
    }

    /// The deepest text line shown: with `--max-depth 100000` two spaces per
    /// level would make each deep line up to 200 KB and the output quadratic
    /// in the depth. `EventRenderer` counts the deeper lines instead; JSON
    /// keeps every event with its exact depth.
    public static let maxIndentDepth = 100

    /// The one line, at the deepest indentation, that stands for `count`
    /// lines nested deeper than `maxIndentDepth`, left out since the last
    /// line written.
    public static func cutLinesNotice(_ count: Int) -> String {
        let what = count == 1 ? "1 line" : "\(count) lines"
        return indent(maxIndentDepth)
            + "… \(what) nested deeper than \(maxIndentDepth) handlers not shown (--format json shows every event)\n"
    }

    /// Two spaces per depth, up to `maxIndentDepth`.
    public static func indent(_ depth: Int) -> String {
        String(repeating: "  ", count: min(max(0, depth), maxIndentDepth))
    }

    public static func indented(_ text: String, _ depth: Int) -> String {
        guard depth > 0 else { return text }
        let pad = indent(depth)
        return pad + text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + pad)
    }
}

/// What a notification line is written into: a `String`, or an
/// `OutputWriter`, which copies the bytes straight into its buffer.
public protocol LineSink: TextSink {
    /// `text` with control characters escaped (key paths come from script strings).
    mutating func appendEscapingControls(_ text: String)
}

extension String: LineSink {
    public mutating func appendEscapingControls(_ text: String) { self += ControlCharacters.escaping(text) }
}
