/// Where a sequence diagram's lifelines stand and where each row's label
/// goes (issue 42): labels were drawn over the activation bars of the
/// handlers they crossed. Each label sits in the space right of its
/// lifeline (an arrow's leftmost end, a note's lifeline), and that space is
/// widened, from the label's measured width, up to `maxGap`, so that it
/// reaches no other lifeline; a label that still meets a bar (wider than
/// `maxGap`, or beside handlers nested so deep that their bars reach the
/// next lifeline) is moved right past it. No label's box meets a bar, and
/// rows are a label's height apart, so no two labels meet either.
struct TraceLayout {
    /// An activation bar: its lifeline's handler runs from `top` to `bottom`.
    struct Bar {
        let left: Double
        let top: Double
        let bottom: Double
        var right: Double { left + TraceLayout.barWidth }
    }

    /// Each lifeline's x.
    let centers: [Double]
    /// Each row's label start: an arrow's text `x`, a note's box `left`.
    let labelStarts: [Double]
    /// Each row's label as drawn (`TraceDiagram.shown`).
    let labels: [String]
    let bars: [Bar]
    /// The canvas: past the last lifeline's header and the widest label.
    let width: Double

    static let barWidth = 8.0
    /// The widest space between two lifelines: room for a label of
    /// `maxLabel` characters up to depth 7, not a row that pushes the next
    /// lifeline off the screen because its handler is nested 500 deep.
    static let maxGap = 820.0
    /// Room kept between a label and a bar, or the next lifeline's bars:
    /// the label's white halo (3 px wide) and a little air.
    static let clearance = 4.0
    /// A note's box is its text's width and this.
    static let notePadding = 14.0

    /// The vertical extent of a row's label, for a row drawn at `rowY`:
    /// an arrow's text sits 5 px above its line (font size 12: 12 px above
    /// its baseline at most, 3 below); a note's box is 22 px high.
    static func labelExtent(_ row: TraceDiagram.Row, rowY: Double) -> (top: Double, bottom: Double) {
        switch row {
        case .arrow: return (rowY - 5 - TraceDiagram.fontSize, rowY - 5 + TraceDiagram.descent)
        case .note: return (rowY - 17, rowY + 5)
        }
    }

    init(participants: Int, rows: [TraceDiagram.Row], y: (Int) -> Double) {
        typealias T = TraceDiagram
        // Where each row's label stands: its lifeline, how far right of it
        // (past a self-arrow's loop, past the steps of its depth), how wide.
        var anchors: [(lifeline: Int, offset: Double, width: Double)] = []
        anchors.reserveCapacity(rows.count)
        var labels: [String] = []
        labels.reserveCapacity(rows.count)
        for row in rows {
            switch row {
            case .arrow(let from, let to, let label, let depth, _):
                let step = T.depthStep * Double(depth)
                let shown = T.shown(label)
                labels.append(shown)
                let offset = from == to ? 4 + step + T.loopWidth + 6 : 6 + step
                anchors.append((min(from, to), offset, T.textWidth(shown)))
            case .note(let at, let text, let depth, _):
                let shown = T.shown(text)
                labels.append(shown)
                anchors.append((at, 10 + T.depthStep * Double(depth), T.textWidth(shown) + Self.notePadding))
            }
        }
        // The spaces between lifelines: at least a column, and each label
        // ends before the next lifeline's bars (at its center - 4 at depth 0).
        var gaps = [Double](repeating: T.columnWidth, count: max(participants - 1, 0))
        for anchor in anchors where anchor.lifeline < gaps.count {
            let needed = anchor.offset + anchor.width + Self.clearance + Self.barWidth / 2
            gaps[anchor.lifeline] = max(gaps[anchor.lifeline], min(needed, Self.maxGap))
        }
        var centers = [T.margin + T.columnWidth / 2]
        for gap in gaps { centers.append((centers.last ?? 0) + gap) }
        if participants == 0 { centers = [] }

        // The bars: a notification's observer runs its handler from its
        // arrow to the last of the rows deeper than it that follow (one
        // pass with a stack of the notifications still open).
        var ends = [Int](repeating: -1, count: rows.count)
        var open: [Int] = []
        for (index, row) in rows.enumerated() {
            let depth = T.rowDepth(row)
            while let last = open.last, T.rowDepth(rows[last]) >= depth {
                ends[last] = index - 1
                open.removeLast()
            }
            if case .arrow(_, _, _, _, .notification) = row { open.append(index) }
        }
        for index in open { ends[index] = rows.count - 1 }
        var bars: [Bar] = []
        var barOf = [Int](repeating: -1, count: rows.count)
        for (index, row) in rows.enumerated() {
            guard case .arrow(_, let to, _, let depth, .notification) = row, ends[index] > index,
                to < centers.count
            else { continue }
            barOf[index] = bars.count
            bars.append(
                Bar(
                    left: centers[to] - Self.barWidth / 2 + 4 * Double(depth), top: y(index),
                    bottom: y(ends[index]) + 10))
        }

        // Each label at its place, or moved right past the bars it meets.
        // The bars that span a row are those of the notifications still
        // open above it (nested: the innermost ends first).
        var starts: [Double] = []
        starts.reserveCapacity(rows.count)
        var width = (centers.last ?? T.margin) + T.columnWidth / 2 + T.margin
        var spanning: [(bar: Int, end: Int)] = []
        for (index, row) in rows.enumerated() {
            while let last = spanning.last, last.end < index { spanning.removeLast() }
            let anchor = anchors[index]
            let center = anchor.lifeline < centers.count ? centers[anchor.lifeline] : T.margin
            var start = center + anchor.offset
            let extent = Self.labelExtent(row, rowY: y(index))
            let meeting =
                spanning
                .map { bars[$0.bar] }
                .filter { $0.top < extent.bottom && $0.bottom > extent.top }
                .sorted { $0.left < $1.left }
            for bar in meeting {
                if bar.right + Self.clearance <= start { continue }
                if bar.left - Self.clearance >= start + anchor.width { break }
                start = bar.right + Self.clearance
            }
            starts.append(start)
            width = max(width, start + anchor.width + T.margin)
            if barOf[index] >= 0 { spanning.append((barOf[index], ends[index])) }
        }
        self.centers = centers
        self.labelStarts = starts
        self.labels = labels
        self.bars = bars
        self.width = width
    }
}
