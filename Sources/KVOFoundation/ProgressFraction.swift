/// A fraction of work done, kept exact, as Foundation's `_NSProgressFraction`
/// (swift-corelibs-foundation's ProgressFraction.swift): sums of children's
/// shares stay exact, so `fractionCompleted` prints what a Mac prints (`0.55`,
/// not the `0.5500000000000000444` of summing Doubles). Where exact Int64
/// arithmetic would overflow, the value goes on as a Double scaled to a
/// billionth, as corelibs falls back to Double then.
struct _KVOProgressFraction: Equatable {
    var completed: Int64
    var total: Int64

    /// Either count negative, or both zero: nothing to say yet.
    var isIndeterminate: Bool { completed < 0 || total < 0 || (completed == 0 && total == 0) }

    /// Done: completed reached the total (or something was done of no total).
    var isFinished: Bool { (completed >= total && completed > 0 && total > 0) || (completed > 0 && total == 0) }

    var fractionCompleted: Double {
        if isIndeterminate { return 0 }
        if total == 0 { return 1 }
        return Double(completed) / Double(total)
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return Int64(truncatingIfNeeded: x)
    }

    private var simplified: _KVOProgressFraction {
        let divisor = Self.gcd(completed, total)
        guard divisor > 1 else { return self }
        return _KVOProgressFraction(completed: completed / divisor, total: total / divisor)
    }

    private static func approximately(_ value: Double) -> _KVOProgressFraction {
        let scale: Int64 = 1_000_000_000
        let scaled = (value * Double(scale)).rounded()
        guard scaled.isFinite, abs(scaled) < 9.0e18 else { return _KVOProgressFraction(completed: 0, total: 1) }
        return _KVOProgressFraction(completed: Int64(scaled), total: scale).simplified
    }

    static func + (lhs: _KVOProgressFraction, rhs: _KVOProgressFraction) -> _KVOProgressFraction {
        if lhs.total == 0 && lhs.completed == 0 { return rhs }
        if rhs.total == 0 && rhs.completed == 0 { return lhs }
        guard lhs.total > 0, rhs.total > 0 else { return approximately(lhs.fractionCompleted + rhs.fractionCompleted) }
        let divisor = gcd(lhs.total, rhs.total)
        let (common, overflow) = (lhs.total / divisor).multipliedReportingOverflow(by: rhs.total)
        let (left, overflowLeft) = lhs.completed.multipliedReportingOverflow(by: common / lhs.total)
        let (right, overflowRight) = rhs.completed.multipliedReportingOverflow(by: common / rhs.total)
        let (sum, overflowSum) = left.addingReportingOverflow(right)
        guard !overflow, !overflowLeft, !overflowRight, !overflowSum else {
            return approximately(Double(lhs.completed) / Double(lhs.total) + Double(rhs.completed) / Double(rhs.total))
        }
        return _KVOProgressFraction(completed: sum, total: common).simplified
    }

    static prefix func - (value: _KVOProgressFraction) -> _KVOProgressFraction {
        _KVOProgressFraction(completed: 0 &- value.completed, total: value.total)
    }

    static func - (lhs: _KVOProgressFraction, rhs: _KVOProgressFraction) -> _KVOProgressFraction {
        lhs + (-rhs)
    }

    static func * (lhs: _KVOProgressFraction, rhs: _KVOProgressFraction) -> _KVOProgressFraction {
        guard lhs.total != 0, rhs.total != 0 else { return _KVOProgressFraction(completed: 0, total: 1) }
        let (completed, overflowCompleted) = lhs.completed.multipliedReportingOverflow(by: rhs.completed)
        let (total, overflowTotal) = lhs.total.multipliedReportingOverflow(by: rhs.total)
        guard !overflowCompleted, !overflowTotal else {
            return approximately(
                Double(lhs.completed) / Double(lhs.total) * (Double(rhs.completed) / Double(rhs.total)))
        }
        return _KVOProgressFraction(completed: completed, total: total).simplified
    }
}
