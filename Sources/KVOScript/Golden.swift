/// Golden files: `X.kvo` beside `X.out`, which holds everything the scenario
/// prints (stdout and stderr, in order) and a last line `# exit status: N` when
/// N ≠ 0. Used by `kvo-run test` and by the test suite.
public enum Golden {
    public static func expectedPath(for scenario: String) -> String {
        String(scenario.dropLast(4)) + ".out"
    }

    /// What running a scenario for a golden test gave.
    public enum Rendering {
        /// Everything it printed, and `# exit status: N` when N is not 0.
        case output(String)
        /// It could not be read or its output was cut: never a golden.
        case failure(String)
    }

    /// Runs a scenario in-process and renders what it printed.
    public static func run(scenarioAt path: String) -> Rendering {
        let source: String
        do {
            // Regular files only: a FIFO named X.kvo would block the run.
            source = try Files.read(path, regularOnly: true)
        } catch {
            return .failure("\(error)")
        }
        let writer = OutputWriter(capturing: ())
        let session = Session(options: RunOptions(), out: writer, err: writer)
        let status = session.run(source, file: Files.baseName(path))
        var text = writer.capturedText
        if let failure = writer.failure {
            return .failure("\(path): \(failure); make it print less (a loop that never ends?)")
        }
        if status != 0 { text += "# exit status: \(status)\n" }
        return .output(text)
    }

    /// The result of checking one scenario.
    public struct Outcome {
        public let scenario: String
        public let passed: Bool
        /// A unified diff, or why the golden file is missing.
        public let report: String
    }

    public static func check(_ scenario: String, update: Bool) -> Outcome {
        let actual: String
        switch run(scenarioAt: scenario) {
        case .output(let text):
            actual = text
        case .failure(let why):
            // Never replace a golden with an error: the scenario was not run.
            return Outcome(scenario: scenario, passed: false, report: why)
        }
        let goldenPath = expectedPath(for: scenario)
        if update {
            do {
                try Files.write(actual, to: goldenPath)
                return Outcome(scenario: scenario, passed: true, report: "")
            } catch {
                return Outcome(scenario: scenario, passed: false, report: "\(error)")
            }
        }
        let expected: String
        do {
            expected = try Files.read(goldenPath, limit: OutputWriter.defaultCaptureLimit + (1 << 10))
        } catch {
            let why = Files.exists(goldenPath) ? "\(error)" : "missing \(goldenPath)"
            return Outcome(scenario: scenario, passed: false, report: "\(why); create it with 'kvo-run test --update \(scenario)'")
        }
        if expected == actual { return Outcome(scenario: scenario, passed: true, report: "") }
        return Outcome(scenario: scenario, passed: false,
                       report: UnifiedDiff.render(expected: expected, actual: actual, expectedName: goldenPath, actualName: "actual output"))
    }
}

/// A unified diff of two texts by lines. Hand-written (LCS over lines): golden
/// files are small and no diff library ships with the toolchain.
public enum UnifiedDiff {
    public static func render(expected: String, actual: String, expectedName: String, actualName: String, context: Int = 3) -> String {
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Edit script from an LCS table; sizes are bounded by golden files.
        let n = a.count, m = b.count
        guard n * m <= 25_000_000 else { return "--- \(expectedName)\n+++ \(actualName)\n(files too large to diff)\n" }
        var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        enum Line { case same(String), removed(String), added(String) }
        var lines: [Line] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] {
                lines.append(.same(a[i])); i += 1; j += 1
            } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
                lines.append(.removed(a[i])); i += 1
            } else {
                lines.append(.added(b[j])); j += 1
            }
        }
        // Line numbers (1-based) in each file where every edit-script entry starts.
        var oldLine = [Int](), newLine = [Int]()
        var o = 1, p = 1
        for line in lines {
            oldLine.append(o); newLine.append(p)
            switch line {
            case .same: o += 1; p += 1
            case .removed: o += 1
            case .added: p += 1
            }
        }
        func isChange(_ k: Int) -> Bool { if case .same = lines[k] { return false } else { return true } }
        var output = "--- \(expectedName)\n+++ \(actualName)\n"
        var k = 0
        while k < lines.count {
            guard let first = (k..<lines.count).first(where: isChange) else { break }
            let start = max(k, first - context)
            var end = first
            var lastChange = first
            while end < lines.count {
                if isChange(end) { lastChange = end }
                if end - lastChange > context * 2 { break }
                end += 1
            }
            end = min(lines.count, lastChange + context + 1)
            var oldCount = 0, newCount = 0
            var body = ""
            for line in lines[start..<end] {
                switch line {
                case .same(let text): body += " \(text)\n"; oldCount += 1; newCount += 1
                case .removed(let text): body += "-\(text)\n"; oldCount += 1
                case .added(let text): body += "+\(text)\n"; newCount += 1
                }
            }
            let oldStart = oldCount == 0 ? oldLine[start] - 1 : oldLine[start]
            let newStart = newCount == 0 ? newLine[start] - 1 : newLine[start]
            output += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n" + body
            k = end
        }
        return output
    }
}
