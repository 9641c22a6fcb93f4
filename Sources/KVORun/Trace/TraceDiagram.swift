import KVOCore

/// A run drawn as a sequence diagram in SVG, by kvo-run itself: one lifeline
/// per object (and one for the scenario's top level), one arrow per
/// notification from the observed object to the observer, labelled with the
/// key path and the change; nested notifications step right by depth, and the
/// observer's handler shows as an activation bar; prints, observation-info
/// dumps and exceptions are notes on the lifeline whose code produced them.
public enum TraceDiagram {
    /// Events drawn at most; the rest are counted at the bottom.
    static let maxEvents = 2000
    /// Longest label drawn, in characters; longer ones end with `…`.
    static let maxLabel = 100

    static let columnWidth = 190.0
    static let rowHeight = 34.0
    static let top = 46.0
    static let headerHeight = 44.0
    static let margin = 20.0
    static let depthStep = 16.0
    /// Average advance of the 12 px sans-serif labels, for sizing the canvas.
    static let characterWidth = 6.8

    private enum Row {
        case arrow(from: Int, to: Int, label: String, depth: Int)
        case note(at: Int, text: String, depth: Int, isException: Bool)
    }

    /// Whether the diagram draws `event` (a row); `--explain` steps and
    /// `graph(…)` are not drawn.
    static func draws(_ event: Event) -> Bool {
        switch event {
        case .notify, .print, .exception, .observationInfo: return true
        case .explain, .graph: return false
        }
    }

    /// `events` drawn, the first `maxEvents` of them; `notDrawn` more that
    /// were not even kept are counted with those left out here.
    public static func svg(_ events: [Event], title: String, notDrawn: Int = 0) -> String {
        var participants: [(name: String, cls: String)] = [("scenario", "top level")]
        var column: [ObjectIdentifier: Int] = [:]
        func lifeline(_ object: KVOObject) -> Int {
            if let index = column[ObjectIdentifier(object)] { return index }
            participants.append((object.name, object.cls.name))
            column[ObjectIdentifier(object)] = participants.count - 1
            return participants.count - 1
        }
        // handlers[d]: the lifeline whose handler runs at depth d + 1.
        var handlers: [Int] = []
        func running(_ depth: Int) -> Int {
            depth > 0 && depth <= handlers.count ? handlers[depth - 1] : 0
        }
        var rows: [Row] = []
        var dropped = notDrawn
        for event in events {
            guard rows.count < maxEvents else {
                dropped += 1
                continue
            }
            switch event {
            case .notify(let object, let keyPath, let observer, let change, _, let depth):
                let from = lifeline(object), to = lifeline(observer)
                if handlers.count > depth { handlers.removeLast(handlers.count - depth) }
                while handlers.count < depth { handlers.append(0) }
                handlers.append(to)
                rows.append(.arrow(from: from, to: to, label: "\(keyPath) \(change.description)", depth: depth))
            case .print(let text, let depth):
                rows.append(.note(at: running(depth), text: text, depth: depth, isException: false))
            case .exception(let exception, let caught):
                let name = caught ? "\(exception.name) (caught)" : "uncaught \(exception.name)"
                let text = name + ": " + exception.reason
                rows.append(.note(at: running(exception.depth), text: text, depth: exception.depth, isException: true))
            case .observationInfo(let object, let observances, let depth):
                let count = observances.count
                let text = "observationInfo: \(count) observance\(count == 1 ? "" : "s")"
                rows.append(.note(at: lifeline(object), text: text, depth: depth, isException: false))
            case .explain, .graph:
                continue
            }
        }

        func x(_ index: Int) -> Double { margin + columnWidth * (Double(index) + 0.5) }
        func y(_ row: Int) -> Double { top + headerHeight + 24 + rowHeight * Double(row) }
        var width = margin * 2 + columnWidth * Double(participants.count)
        for row in rows {
            switch row {
            case .arrow(let from, let to, let label, let depth):
                let start = min(x(from), x(to)) + 6 + depthStep * Double(depth)
                width = max(width, start + characterWidth * Double(clipped(label).count) + margin)
            case .note(let at, let text, let depth, _):
                let start = x(at) + 12 + depthStep * Double(depth)
                width = max(width, start + characterWidth * Double(clipped(text).count) + margin + 12)
            }
        }
        let bottom = y(rows.count) + (dropped > 0 ? 20 : 0)
        let height = bottom + margin

        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" \
            orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#1b1b1b"/></marker></defs>
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
        // the next row that is not deeper.
        for (index, row) in rows.enumerated() {
            guard case .arrow(_, let to, _, let depth) = row else { continue }
            var end = index
            while end + 1 < rows.count, rowDepth(rows[end + 1]) > depth { end += 1 }
            guard end > index else { continue }
            let left = x(to) - 4 + 4 * Double(depth)
            svg +=
                "<rect x=\"\(n(left))\" y=\"\(n(y(index)))\" width=\"8\" height=\"\(n(y(end) - y(index) + 10))\" "
                + "fill=\"#fff3c4\" stroke=\"#8a5a00\"/>\n"
        }
        for (index, row) in rows.enumerated() {
            let rowY = y(index)
            switch row {
            case .arrow(let from, let to, let label, let depth):
                let step = depthStep * Double(depth)
                let color = depth == 0 ? "#1b1b1b" : "#1f6fb2"
                if from == to {
                    let start = x(from) + 4
                    svg +=
                        "<path d=\"M \(n(start)) \(n(rowY - 6)) h 28 v 12 h -24\" fill=\"none\" "
                        + "stroke=\"\(color)\" marker-end=\"url(#arrow)\"/>\n"
                } else {
                    let startX = x(from) + (from < to ? 4 : -4)
                    let endX = x(to) + (from < to ? -4 : 4) + 4 * Double(depth)
                    svg +=
                        "<line x1=\"\(n(startX))\" y1=\"\(n(rowY))\" x2=\"\(n(endX))\" y2=\"\(n(rowY))\" "
                        + "stroke=\"\(color)\" stroke-width=\"1.4\" marker-end=\"url(#arrow)\"/>\n"
                }
                let labelX = min(x(from), x(to)) + 6 + step
                svg +=
                    "<text x=\"\(n(labelX))\" y=\"\(n(rowY - 5))\" fill=\"\(color)\" stroke=\"#ffffff\" "
                    + "stroke-width=\"3\" paint-order=\"stroke\">\(XMLText.escaped(clipped(label)))</text>\n"
            case .note(let at, let text, let depth, let isException):
                let left = x(at) + 10 + depthStep * Double(depth)
                let noteWidth = characterWidth * Double(clipped(text).count) + 14
                let fill = isException ? "#fde2e1" : "#f3f3f3"
                let stroke = isException ? "#b3261e" : "#7f7f7f"
                svg +=
                    "<rect x=\"\(n(left))\" y=\"\(n(rowY - 17))\" width=\"\(n(noteWidth))\" height=\"22\" rx=\"3\" "
                    + "fill=\"\(fill)\" stroke=\"\(stroke)\"/>\n"
                let ink = isException ? "#b3261e" : "#1b1b1b"
                svg +=
                    "<text x=\"\(n(left + 7))\" y=\"\(n(rowY - 2))\" fill=\"\(ink)\">\(XMLText.escaped(clipped(text)))</text>\n"
            }
        }
        if dropped > 0 {
            svg +=
                "<text x=\"\(n(margin))\" y=\"\(n(bottom))\" fill=\"#555555\">"
                + "… \(dropped) more events not drawn (at most \(maxEvents) are)</text>\n"
        }
        return svg + "</svg>\n"
    }

    private static func rowDepth(_ row: Row) -> Int {
        switch row {
        case .arrow(_, _, _, let depth), .note(_, _, let depth, _): return depth
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
