/// A unified diff of two texts by lines, from the standard library's
/// `difference(from:)` (a Myers diff, as swift-syntax's test support uses).
public enum UnifiedDiff {
    /// Beyond this many lines in all, only the header and a note are shown:
    /// a runaway scenario's output is not worth diffing line by line.
    static let lineLimit = 200_000

    /// One line, and whether a newline ends it (only a file's last line may
    /// lack one): "x" and "x\n" at the end of two files differ, and the diff
    /// says so as `diff -u` does.
    private struct Text: Hashable {
        var line: Substring
        var ended: Bool

        /// The line as the diff shows it after its mark.
        var shown: String { ended ? "\(line)\n" : "\(line)\n\\ No newline at end of file\n" }
    }

    private enum Line {
        case same(Text), removed(Text), added(Text)

        var isChange: Bool {
            if case .same = self { return false }
            return true
        }
    }

    public static func render(
        expected: String, actual: String, expectedName: String, actualName: String, context: Int = 3
    ) -> String {
        let header = "--- \(expectedName)\n+++ \(actualName)\n"
        let old = lines(of: expected)
        let new = lines(of: actual)
        guard old.count + new.count <= lineLimit else { return header + "(files too large to diff)\n" }
        let lines = editScript(from: old, to: new)
        // Line numbers (1-based) in each file where every edit-script entry starts.
        var oldLine: [Int] = [], newLine: [Int] = []
        var o = 1, p = 1
        for line in lines {
            oldLine.append(o)
            newLine.append(p)
            switch line {
            case .same:
                o += 1
                p += 1
            case .removed: o += 1
            case .added: p += 1
            }
        }
        var output = header
        var k = 0
        while let first = lines[k...].firstIndex(where: \.isChange) {
            let start = max(k, first - context)
            // A hunk runs until more than twice the context separates two
            // changes (two hunks that close are one, as in `diff -u`).
            var lastChange = first
            var end = first
            while end < lines.count {
                if lines[end].isChange { lastChange = end }
                if end - lastChange > context * 2 { break }
                end += 1
            }
            end = min(lines.count, lastChange + context + 1)
            var oldCount = 0, newCount = 0
            var body = ""
            for line in lines[start..<end] {
                switch line {
                case .same(let text):
                    body += " " + text.shown
                    oldCount += 1
                    newCount += 1
                case .removed(let text):
                    body += "-" + text.shown
                    oldCount += 1
                case .added(let text):
                    body += "+" + text.shown
                    newCount += 1
                }
            }
            let oldStart = oldCount == 0 ? oldLine[start] - 1 : oldLine[start]
            let newStart = newCount == 0 ? newLine[start] - 1 : newLine[start]
            output += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n" + body
            k = end
        }
        return output
    }

    /// A text's lines, cut at each "\n" scalar (a "\r\n" Character is one
    /// too); a final newline ends the last line rather than starting an
    /// empty one, and a last line without one is marked.
    private static func lines(of text: String) -> [Text] {
        let cut = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        var lines = cut.map { Text(line: Substring($0), ended: true) }
        if lines.last?.line.isEmpty == true {
            lines.removeLast()
        } else if !lines.isEmpty {
            lines[lines.count - 1].ended = false
        }
        return lines
    }

    /// `start,count` as `diff -u` writes it: the count left out when it is 1.
    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }

    /// The two texts walked in step: each old line removed or kept, each new
    /// line added or kept, in order.
    private static func editScript(from old: [Text], to new: [Text]) -> [Line] {
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in new.difference(from: old) {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var lines: [Line] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, removed.contains(i) || j == new.count {
                lines.append(.removed(old[i]))
                i += 1
            } else if j < new.count, inserted.contains(j) || i == old.count {
                lines.append(.added(new[j]))
                j += 1
            } else {
                lines.append(.same(old[i]))
                i += 1
                j += 1
            }
        }
        return lines
    }
}
