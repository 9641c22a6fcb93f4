import KVOCore

/// A run drawn as a sequence diagram in SVG, by kvo-run itself: one lifeline
/// per object (and one for the scenario's top level), one arrow per
/// notification from the observed object to the observer, labelled with the
/// key path, the change and the observance told (`acct[1]`, as a dump names
/// it); nested notifications step right by depth, and the observer's handler
/// shows as an activation bar; prints, observation-info dumps and exceptions
/// are notes on the lifeline whose code produced them.
///
/// So that the picture answers "why" as well as "what", it also draws what
/// caused the notifications: the top-level statement (an arrow from the
/// scenario's lifeline, labelled with its line and text) or the set made in
/// a handler (an arrow from that handler's observer), the observers added
/// and removed inside handlers, and each delivery not made (a dashed arrow
/// ending in a cross) because its observer was removed, or added, mid-change.
/// Those come from the engine's `--explain` steps (`Builder`).
public enum TraceDiagram {
    /// Events drawn at most; the rest are counted at the bottom.
    public static let maxEvents = 2000
    /// Longest label drawn, in characters; longer ones end with `…`.
    static let maxLabel = 100
    /// Longest statement text on a statement's arrow.
    static let maxStatement = 40

    static let columnWidth = 190.0
    static let rowHeight = 34.0
    static let top = 46.0
    static let headerHeight = 44.0
    static let margin = 20.0
    static let depthStep = 16.0
    /// The labels' font size, and how far below its baseline a label reaches.
    static let fontSize = 12.0
    static let descent = 3.0
    /// Average advance of the 12 px sans-serif labels, for laying them out
    /// (`textWidth`); a wide character (CJK, emoji) takes `wideCharacterWidth`.
    static let characterWidth = 6.8
    static let wideCharacterWidth = 12.0
    /// How far right of its lifeline a self-arrow's loop reaches; its label
    /// starts past it.
    static let loopWidth = 28.0

    /// What an arrow stands for; each is drawn in its own colour and dash.
    enum ArrowKind: String {
        /// A notification delivered.
        case notification
        /// What started a change: a top-level statement or a set in a handler.
        case cause
        /// `addObserver` inside a handler.
        case registration
        /// `removeObserver` inside a handler.
        case removal
        /// A delivery not made: the observer was removed (or added) mid-change.
        case skipped
    }

    enum Row {
        case arrow(from: Int, to: Int, label: String, depth: Int, kind: ArrowKind)
        case note(at: Int, text: String, depth: Int, isException: Bool)
    }

    /// Whether the diagram draws `event` as a row of its own and counts it
    /// against `maxEvents`; `--explain` steps give the arrows that say why,
    /// and `graph(…)` is not drawn.
    static func draws(_ event: Event) -> Bool {
        switch event {
        case .notify, .print, .exception, .observationInfo: return true
        case .explain, .graph: return false
        }
    }

    /// `events` drawn, the first `maxEvents` of them; `notDrawn` more that
    /// were not even kept are counted with those left out here.
    public static func svg(_ events: [Event], title: String, notDrawn: Int = 0) -> String {
        let builder = Builder()
        for event in events { builder.add(event) }
        builder.dropped += notDrawn
        return svg(builder, title: title)
    }

    /// The rows of a run, built as its events come (a run of millions keeps
    /// at most `maxEvents` of them).
    public final class Builder {
        private(set) var participants: [(name: String, cls: String)] = [("scenario", "top level")]
        private var column: [ObjectIdentifier: Int] = [:]
        /// Lifelines by object name, for the `--explain` steps, which name
        /// objects (`alice` removed) rather than hold them.
        private var byName: [String: Int] = [:]
        /// Lifelines made from a name, not yet matched with their object.
        private var namedOnly: Set<Int> = []
        /// The class of an object named so, when no event has shown it yet.
        let classOf: (String) -> String?
        /// handlers[d]: the lifeline whose handler runs at depth d + 1, and
        /// the row of the notification that started it.
        private var handlers: [(lifeline: Int, row: Int)] = []
        fileprivate(set) var rows: [Row] = []
        /// Events drawn (notifications, prints, exceptions, dumps).
        public private(set) var eventsDrawn = 0
        /// Events past `maxEvents`, counted.
        public internal(set) var dropped = 0
        /// The top-level statement running: its line and its text.
        private var statement: (line: Int, text: String)?
        /// causes[d]: the change started at depth d whose notifications are
        /// next, not drawn yet (the object and what to write on the arrow).
        private var causes: [Int: (object: String, label: String)] = [:]
        /// What the last cause drawn at each depth was, so a loop setting one
        /// key a thousand times draws one arrow, not a thousand.
        private var lastCause: [Int: String] = [:]
        /// told[d]: the observance whose notification comes next at depth d.
        private var told: [Int: String] = [:]

        public init(classOf: @escaping (String) -> String? = { _ in nil }) {
            self.classOf = classOf
        }

        /// Whether no more events are drawn: the rest are only counted.
        public var isFull: Bool { eventsDrawn >= maxEvents }

        /// A top-level statement starts: what it causes is drawn as coming from it.
        public func startStatement(line: Int, text: String) {
            statement = (line, text)
            causes = [:]
            told = [:]
            lastCause[0] = nil
        }

        func lifeline(_ object: KVOObject) -> Int {
            if let index = column[ObjectIdentifier(object)] { return index }
            if let index = byName[object.name], namedOnly.contains(index) {
                namedOnly.remove(index)
                column[ObjectIdentifier(object)] = index
                return index
            }
            participants.append((object.name, object.cls.name))
            column[ObjectIdentifier(object)] = participants.count - 1
            byName[object.name] = participants.count - 1
            return participants.count - 1
        }

        func lifeline(named name: String) -> Int {
            if let index = byName[name] { return index }
            // `Account#3`, the name of an object no variable holds.
            let cls =
                classOf(name)
                ?? name.split(separator: "#").first.map(String.init).flatMap {
                    $0 == name ? nil : $0
                }
            participants.append((name, cls ?? ""))
            byName[name] = participants.count - 1
            namedOnly.insert(participants.count - 1)
            return participants.count - 1
        }

        /// The lifeline whose code runs at `depth`: the scenario's at 0.
        private func running(_ depth: Int) -> Int {
            depth > 0 && depth <= handlers.count ? handlers[depth - 1].lifeline : 0
        }

        /// Rows that are not events (causes, registrations, removals,
        /// deliveries not made), at most `maxEvents` too: a handler may
        /// remove and add observers a million times without one notification.
        private var annotations = 0

        private func annotate(_ row: Row) {
            guard !isFull, annotations < maxEvents else { return }
            annotations += 1
            rows.append(row)
        }

        private func append(_ row: Row, isEvent: Bool) {
            guard !isFull else {
                if isEvent { dropped += 1 }
                return
            }
            rows.append(row)
            if isEvent { eventsDrawn += 1 }
        }

        /// Draws what caused the row about to be drawn at `depth`, unless the
        /// same cause was drawn just before; `object` is the row's object,
        /// for a top-level statement whose change no step named.
        private func drawCause(_ depth: Int, object: String) {
            guard !isFull else { return }
            var cause = causes.removeValue(forKey: depth)
            if cause == nil, depth == 0, lastCause[0] == nil, let statement {
                cause = (object, Self.statementLabel(statement))
            }
            guard let cause else { return }
            let handlerRow = depth > 0 && depth <= handlers.count ? handlers[depth - 1].row : -1
            let key = "\(handlerRow) \(cause.object) \(cause.label)"
            guard lastCause[depth] != key else { return }
            lastCause[depth] = key
            let to = lifeline(named: cause.object)
            annotate(.arrow(from: running(depth), to: to, label: cause.label, depth: depth, kind: .cause))
        }

        static func statementLabel(_ statement: (line: Int, text: String)) -> String {
            let text = clipped(statement.text, maxStatement)
            return text.isEmpty ? "line \(statement.line)" : "line \(statement.line): \(text)"
        }

        public func add(_ event: Event) {
            switch event {
            case .notify(let object, let keyPath, let observer, let change, _, let depth):
                guard !isFull else {
                    dropped += 1
                    return
                }
                drawCause(depth, object: object.name)
                let from = lifeline(object), to = lifeline(observer)
                if handlers.count > depth { handlers.removeLast(handlers.count - depth) }
                while handlers.count < depth { handlers.append((0, rows.count)) }
                handlers.append((to, rows.count))
                var label = "\(keyPath) \(change.description)"
                if let observance = told.removeValue(forKey: depth) { label += "  (\(observance))" }
                append(.arrow(from: from, to: to, label: label, depth: depth, kind: .notification), isEvent: true)
            case .print(let text, let depth):
                append(.note(at: running(depth), text: text, depth: depth, isException: false), isEvent: true)
            case .exception(let exception, let caught):
                let name = caught ? "\(exception.name) (caught)" : "uncaught \(exception.name)"
                let text = name + ": " + exception.reason
                append(
                    .note(at: running(exception.depth), text: text, depth: exception.depth, isException: true),
                    isEvent: true)
            case .observationInfo(let object, let observances, let depth):
                guard !isFull else {
                    dropped += 1
                    return
                }
                let count = observances.count
                let text = "observationInfo: \(count) observance\(count == 1 ? "" : "s")"
                append(.note(at: lifeline(object), text: text, depth: depth, isException: false), isEvent: true)
            case .explain(let step, let depth):
                guard !isFull else { return }
                explain(step, depth)
            case .graph:
                return
            }
        }

        private func explain(_ step: Explanation, _ depth: Int) {
            switch step {
            case .changeStarts(let object, let key, let kind, let automatic):
                let label: String
                if depth == 0, let statement {
                    label = Self.statementLabel(statement)
                } else if !automatic {
                    label = "willChangeValue(forKey: \"\(key)\")"
                } else {
                    switch kind {
                    case .setting: label = "sets \(key)"
                    case .insertion: label = "inserts into \(key)"
                    case .removal: label = "removes from \(key)"
                    case .replacement: label = "replaces in \(key)"
                    }
                }
                causes[depth] = (object, label)
            case .initial(let observance):
                let label =
                    depth == 0 ? statement.map(Self.statementLabel) : nil
                causes[depth] = (
                    observance.object,
                    label ?? "addObserver(\(observance.observer), \"\(observance.keyPath)\", [.initial])"
                )
            // Told inside addObserver, before it is registered: it has no index yet.
            case .delivering(let observance, _, _), .prior(let observance):
                told[depth] = observance.label
            case .skipped(let observance):
                notTold(observance, depth, why: "removed mid-change")
            case .addedMidChange(let observance):
                notTold(observance, depth, why: "registered mid-change, as \(observance.label)")
            case .removed(let observance, _, _, _) where depth > 0:
                callFromHandler("removeObserver", observance, "\(observance.label) removed", depth, .removal)
            case .registered(let observance, _) where depth > 0:
                callFromHandler("addObserver", observance, observance.label, depth, .registration)
            default:
                return
            }
        }

        /// `addObserver` or `removeObserver` called by a running handler: an
        /// arrow from it to the observed object, `CALL(observer, "keyPath"): outcome`.
        private func callFromHandler(
            _ call: String, _ observance: ExplainedObservance, _ outcome: String, _ depth: Int, _ kind: ArrowKind
        ) {
            annotate(
                .arrow(
                    from: running(depth), to: lifeline(named: observance.object),
                    label: "\(call)(\(observance.observer), \"\(observance.keyPath)\"): \(outcome)", depth: depth,
                    kind: kind))
        }

        /// A delivery not made, drawn where it would have gone.
        private func notTold(_ observance: ExplainedObservance, _ depth: Int, why: String) {
            drawCause(depth, object: observance.object)
            let from = lifeline(named: observance.object), to = lifeline(named: observance.observer)
            annotate(
                .arrow(
                    from: from, to: to, label: "\(observance.keyPath): not told (\(why))", depth: depth,
                    kind: .skipped))
        }
    }

    /// The SVG of what `builder` gathered.
    public static func svg(_ builder: Builder, title: String) -> String {
        let participants = builder.participants
        let rows = builder.rows
        let dropped = builder.dropped

        func y(_ row: Int) -> Double { top + headerHeight + 24 + rowHeight * Double(row) }
        let layout = TraceLayout(participants: participants.count, rows: rows, y: y)
        func x(_ index: Int) -> Double { index < layout.centers.count ? layout.centers[index] : margin }
        let width = layout.width
        let bottom = y(rows.count) + (dropped > 0 ? 20 : 0)
        let height = bottom + margin

        // One arrowhead per colour: SVG 1.1 markers do not take the line's.
        var markers = ""
        for kind in [ArrowKind.cause, .registration, .removal] {
            markers +=
                "<marker id=\"\(kind.rawValue)\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" "
                + "markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" "
                + "fill=\"\(ink(kind, depth: 0))\"/></marker>"
        }
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" \
            orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#1b1b1b"/></marker>\(markers)</defs>
            <rect x="0" y="0" width="\(n(width))" height="\(n(height))" fill="#ffffff"/>
            <text x="\(n(margin))" y="26" font-size="15" font-weight="bold">\(XMLText.escaped(title))</text>

            """
        // Lifelines and their headers.
        for (index, participant) in participants.enumerated() {
            let center = x(index)
            let boxWidth = columnWidth - 24
            let fill = index == 0 ? "#eeeeee" : "#dbe9f6"
            svg +=
                "<line x1=\"\(n(center))\" y1=\"\(n(top + headerHeight))\" x2=\"\(n(center))\" y2=\"\(n(bottom))\" "
                + "stroke=\"#9a9a9a\" stroke-dasharray=\"4 4\"/>\n"
            svg +=
                "<rect x=\"\(n(center - boxWidth / 2))\" y=\"\(n(top))\" width=\"\(n(boxWidth))\" "
                + "height=\"\(n(headerHeight))\" rx=\"6\" fill=\"\(fill)\" stroke=\"#1b1b1b\"/>\n"
            svg +=
                "<text x=\"\(n(center))\" y=\"\(n(top + 19))\" text-anchor=\"middle\" font-weight=\"bold\">"
                + "\(XMLText.escaped(clipped(participant.name, 24)))</text>\n"
            svg +=
                "<text x=\"\(n(center))\" y=\"\(n(top + 35))\" text-anchor=\"middle\" fill=\"#555555\">"
                + "\(XMLText.escaped(clipped(participant.cls, 24)))</text>\n"
        }
        // Activation bars: an observer's handler runs from its arrow until
        // the next row that is not deeper (TraceLayout).
        for bar in layout.bars {
            svg +=
                "<rect x=\"\(n(bar.left))\" y=\"\(n(bar.top))\" width=\"\(n(TraceLayout.barWidth))\" "
                + "height=\"\(n(bar.bottom - bar.top))\" fill=\"#fff3c4\" stroke=\"#8a5a00\"/>\n"
        }
        for (index, row) in rows.enumerated() {
            let rowY = y(index)
            switch row {
            case .arrow(let from, let to, _, let depth, let kind):
                let step = depthStep * Double(depth)
                let color = ink(kind, depth: depth)
                let marker = kind == .notification ? "arrow" : kind.rawValue
                var stroke = "class=\"\(kind.rawValue)\" stroke=\"\(color)\""
                switch kind {
                case .notification, .cause: break
                case .registration, .removal: stroke += " stroke-dasharray=\"6 3\""
                case .skipped: stroke += " stroke-dasharray=\"3 3\""
                }
                // A delivery not made ends in a cross, not an arrowhead.
                let head = kind == .skipped ? "" : " marker-end=\"url(#\(marker))\""
                let endX: Double
                if from == to {
                    let start = x(from) + 4 + step
                    endX = start + 4
                    svg +=
                        "<path d=\"M \(n(start)) \(n(rowY - 6)) h \(n(loopWidth)) v 12 h -24\" fill=\"none\" "
                        + "\(stroke)\(head)/>\n"
                } else {
                    let startX = x(from) + (from < to ? 4 : -4)
                    endX = x(to) + (from < to ? -4 : 4) + 4 * Double(depth)
                    svg +=
                        "<line x1=\"\(n(startX))\" y1=\"\(n(rowY))\" x2=\"\(n(endX))\" y2=\"\(n(rowY))\" "
                        + "\(stroke) stroke-width=\"1.4\"\(head)/>\n"
                }
                if kind == .skipped {
                    let crossY = from == to ? rowY + 6 : rowY
                    svg +=
                        "<path d=\"M \(n(endX - 5)) \(n(crossY - 5)) l 10 10 m 0 -10 l -10 10\" stroke=\"\(color)\" "
                        + "stroke-width=\"2\"/>\n"
                }
                svg +=
                    "<text x=\"\(n(layout.labelStarts[index]))\" y=\"\(n(rowY - 5))\" fill=\"\(color)\" "
                    + "stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">"
                    + "\(XMLText.escaped(layout.labels[index]))</text>\n"
            case .note(_, _, _, let isException):
                let left = layout.labelStarts[index]
                let noteWidth = textWidth(layout.labels[index]) + TraceLayout.notePadding
                let fill = isException ? "#fde2e1" : "#f3f3f3"
                let stroke = isException ? "#b3261e" : "#7f7f7f"
                svg +=
                    "<rect x=\"\(n(left))\" y=\"\(n(rowY - 17))\" width=\"\(n(noteWidth))\" height=\"22\" rx=\"3\" "
                    + "fill=\"\(fill)\" stroke=\"\(stroke)\"/>\n"
                let ink = isException ? "#b3261e" : "#1b1b1b"
                svg +=
                    "<text x=\"\(n(left + 7))\" y=\"\(n(rowY - 2))\" fill=\"\(ink)\">"
                    + "\(XMLText.escaped(layout.labels[index]))</text>\n"
            }
        }
        if dropped > 0 {
            svg +=
                "<text x=\"\(n(margin))\" y=\"\(n(bottom))\" fill=\"#555555\">"
                + "… \(dropped) more events not drawn (at most \(maxEvents) are)</text>\n"
        }
        return svg + "</svg>\n"
    }

    static func rowDepth(_ row: Row) -> Int {
        switch row {
        case .arrow(_, _, _, let depth, _), .note(_, _, let depth, _): return depth
        }
    }

    /// An arrow's colour: notifications black, or blue inside a handler;
    /// causes green, registrations purple, removals red, deliveries not
    /// made grey.
    static func ink(_ kind: ArrowKind, depth: Int) -> String {
        switch kind {
        case .notification: return depth == 0 ? "#1b1b1b" : "#1f6fb2"
        case .cause: return "#2e7d32"
        case .registration: return "#6a3d9a"
        case .removal: return "#b3261e"
        case .skipped: return "#7f7f7f"
        }
    }

    /// The text of a statement as its arrow shows it: the line it starts
    /// on (a statement's location is its operator's, `=` for a set, so not
    /// from there), without a trailing `//` comment.
    public static func statementText(_ line: Substring) -> String {
        let rest = line
        var inString = false, escaped = false
        var previous: Character = " "
        var end = rest.endIndex
        for index in rest.indices {
            let character = rest[index]
            defer { previous = character }
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "/", previous == "/" {
                end = rest.index(before: index)
                break
            }
        }
        let text = rest[..<end].drop { $0 == " " || $0 == "\t" }
        return String(text.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }

    /// A label as drawn: one line of at most `maxLabel` characters, with
    /// what no picture shows raw escaped (`XMLText.visible`), as measured.
    static func shown(_ text: String) -> String { XMLText.visible(clipped(text)) }

    /// The width of `text` at the labels' font size, estimated: the layout
    /// keeps labels clear of bars by it, and the tests measure by it too.
    static func textWidth(_ text: String) -> Double {
        var width = 0.0
        for character in text {
            width += isWide(character.unicodeScalars.first?.value ?? 0) ? wideCharacterWidth : characterWidth
        }
        return width
    }

    /// East Asian wide and full-width characters and emoji: about a square.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// One line, at most `limit` characters.
    static func clipped(_ text: String, _ limit: Int = maxLabel) -> String {
        let line = ControlCharacters.escaping(text)
        return line.count <= limit ? line : String(line.prefix(limit - 1)) + "…"
    }

    /// A coordinate with at most one decimal.
    static func n(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10, fraction = abs(Int(tenths) % 10)
        return fraction == 0 ? String(whole) : "\(whole).\(fraction)"
    }
}
