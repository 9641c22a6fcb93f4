/// Which file and line each line of the rewritten source is: a file's own
/// lines, or the REPL's entries one after another, each with its name and
/// its lines counted from 1.
struct LineMap {
    /// The line where each part starts, ascending; the first is 1.
    let firstLines: [Int]
    let names: [String]

    init(file: String) {
        firstLines = [1]
        names = [file]
    }

    init(firstLines: [Int], names: [String]) {
        self.firstLines = firstLines.isEmpty ? [1] : firstLines
        self.names = names.isEmpty ? ["<repl>"] : names
    }

    func locate(_ line: Int) -> (name: String, line: Int) {
        var low = 0
        var high = min(firstLines.count, names.count) - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firstLines[middle] <= line { low = middle } else { high = middle - 1 }
        }
        return (names[low], max(1, line - firstLines[low] + 1))
    }
}
