import KVOCore
import KVOOutput

/// "did you mean …?" for a misspelled name, from the candidates in scope.
///
/// A scenario can misspell thousands of names among thousands of others, or
/// one name 60,000 characters long: candidates are pruned by length first,
/// distances are computed in a band `limit` wide with an early exit, names
/// longer than `maxLength` get no suggestion, and all the suggestions of a
/// run share a budget of `workBudget` table cells, past which they stop.
public enum Suggestion {
    static let maxLength = 256
    static let workBudget = 30_000_000

    /// The budget and scratch rows of the suggestions of one run. A session
    /// binds its own around parsing, checking and running (`Work.$current`, a
    /// task-local, so sessions on other threads never share one); unbound, a
    /// suggestion gets a fresh one. `@unchecked Sendable` because a task-local
    /// needs it: a binding is used only on the thread that made it (the
    /// interpreter starts no tasks that could inherit it).
    final class Work: @unchecked Sendable {
        @TaskLocal static var current: Work?
        /// Table cells the run's suggestions may still compute.
        var cellsLeft = workBudget
        /// Two rows of the distance table, kept from call to call.
        var rowA: [Int] = []
        var rowB: [Int] = []
    }

    /// The candidate nearest to `name` ignoring case, within a third of its
    /// length. Ties go to the nearer spelling with case, then to the first in
    /// alphabetical order: candidates often come from a dictionary, whose
    /// order changes from run to run, and the message must not.
    static func closest(to name: String, in candidates: [String]) -> String? {
        let work = Work.current ?? Work()
        let scalars = Array(name.unicodeScalars)
        guard scalars.count <= maxLength, work.cellsLeft > 0 else { return nil }
        let lowered = Array(name.lowercased().unicodeScalars)
        let limit = max(1, name.count / 3)
        var best: (distance: Int, exact: Int, candidate: String)?
        let asciiName = name.utf8.allSatisfy { $0 < 0x80 } ? Array(name.utf8) : nil
        for candidate in candidates where candidate != name {
            // Cheap pruning before anything is built: lengths too far apart.
            let length = candidate.utf8.count
            guard length <= 4 * (scalars.count + limit + 1), length <= 4 * maxLength else { continue }
            guard work.cellsLeft > 0 else { break }
            let distance: Int
            if let asciiName, let folded = asciiDistance(asciiName, candidate, limit: limit, work) {
                // ASCII on both sides (nearly every name): compared in place.
                distance = folded
            } else {
                let other = Array(candidate.unicodeScalars)
                guard abs(other.count - scalars.count) <= limit, other.count <= maxLength else { continue }
                distance = editDistance(lowered, Array(candidate.lowercased().unicodeScalars), limit: limit, work)
            }
            guard distance <= limit else { continue }
            let exact = editDistance(scalars, Array(candidate.unicodeScalars), limit: limit + name.count, work)
            if let current = best, (current.distance, current.exact, current.candidate) <= (distance, exact, candidate)
            {
                continue
            }
            best = (distance, exact, candidate)
        }
        return best?.candidate
    }

    static func didYouMean(_ name: String, in candidates: [String]) -> String {
        closest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The case-insensitive distance between ASCII `name` and `candidate`,
    /// read in place with rows kept from call to call; nil when the
    /// candidate is not ASCII.
    private static func asciiDistance(_ name: [UInt8], _ candidate: String, limit: Int, _ work: Work) -> Int? {
        var candidate = candidate
        return candidate.withUTF8 { other -> Int? in
            guard other.count <= maxLength else { return limit + 1 }
            if abs(other.count - name.count) > limit { return limit + 1 }
            if other.contains(where: { $0 >= 0x80 }) { return nil }
            return name.withUnsafeBufferPointer { a in
                bandedDistance(count: a.count, other.count, limit: limit, work) { i, j in
                    lowercase(a[i]) == lowercase(other[j])
                }
            }
        }
    }

    @inline(__always)
    private static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Levenshtein distance between sequences of `n` and `m` elements
    /// (`same(i, j)` compares two), within a band of `limit` either side of
    /// the diagonal, stopping once a row exceeds `limit`; limit + 1 past it.
    @inline(__always)
    private static func bandedDistance(
        count n: Int, _ m: Int, limit: Int, _ work: Work, _ same: (Int, Int) -> Bool
    ) -> Int {
        if abs(n - m) > limit { return limit + 1 }
        if n == 0 { return m }
        if m == 0 { return n }
        let over = limit + 1
        // Taken out of `work` while in use, so that they stay uniquely referenced.
        var previous = work.rowA, current = work.rowB
        work.rowA = []
        work.rowB = []
        defer {
            work.rowA = previous
            work.rowB = current
        }
        if previous.count < m + 1 {
            previous = [Int](repeating: over, count: m + 1)
            current = previous
        }
        for j in 0...m { previous[j] = j <= limit ? j : over }
        for i in 1...n {
            let low = max(1, i - limit), high = min(m, i + limit)
            work.cellsLeft -= high - low + 1
            current[low - 1] = low == 1 ? min(i, over) : over
            var rowMinimum = current[low - 1]
            if low <= high {
                for j in low...high {
                    let substitution = previous[j - 1] + (same(i - 1, j - 1) ? 0 : 1)
                    let value = min(previous[j] + 1, current[j - 1] + 1, substitution, over)
                    current[j] = value
                    rowMinimum = min(rowMinimum, value)
                }
            }
            if high < m { current[high + 1] = over }
            if rowMinimum > limit { return over }
            swap(&previous, &current)
        }
        return min(previous[m], over)
    }

    /// Levenshtein distance between two strings' scalars, giving up past
    /// `limit` (then `limit + 1`): the one edit distance of kvo-run, for
    /// names in scenarios and for mistyped subcommands alike.
    public static func distance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        return min(editDistance(a, b, limit: limit, Work()), limit + 1)
    }

    /// Levenshtein distance between scalar arrays, giving up past `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int, _ work: Work) -> Int {
        bandedDistance(count: a.count, b.count, limit: limit, work) { a[$0] == b[$1] }
    }
}
