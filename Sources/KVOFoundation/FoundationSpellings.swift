/// Foundation API that Apple's SDK declares differently from
/// swift-corelibs-foundation, where KVO code written for a Mac depends on
/// Apple's declaration.

extension NSDate {
    /// Apple's returns `Self` (`instancetype`), corelibs' a `Date`: Apple's
    /// own KVO listing ("Using Key-Value Observing in Swift") assigns the
    /// result to an `NSDate` property. Disfavoured, so that where either
    /// fits (`let later = date.addingTimeInterval(60)`) corelibs' is chosen
    /// and nothing is ambiguous; both print the same.
    @_disfavoredOverload
    public func addingTimeInterval(_ ti: TimeInterval) -> Self {
        Self(timeIntervalSinceReferenceDate: timeIntervalSinceReferenceDate + ti)
    }
}
