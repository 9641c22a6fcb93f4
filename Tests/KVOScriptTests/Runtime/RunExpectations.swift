import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// What the runtime suites share: run options, an exact-output expectation and
/// an observed scenario to build on.
protocol RunExpectations {}

extension RunExpectations {
    func options(maxSteps: Int = .max, maxDepth: Int = 1000, keepGoing: Bool = false) -> RunOptions {
        var options = RunOptions()
        options.maxSteps = maxSteps
        options.maxDepth = maxDepth
        options.keepGoing = keepGoing
        return options
    }

    /// Runs `source` and expects exactly this status, standard output and standard error.
    func expectRun(
        _ source: String, options: RunOptions = RunOptions(), format: OutputFormatKind = .text,
        status: Int32, out: String, err: String = "",
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let result = run(source, options: options, format: format)
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        #expect(result.out == out, sourceLocation: sourceLocation)
        #expect(result.err == err, sourceLocation: sourceLocation)
    }

    /// Runs `source(variant)` for each of `variants` (the same story told
    /// two ways, which must print the same), expecting from each exactly
    /// `out` and `status`, and an error output containing `errorMessage`
    /// (empty when nil).
    func expectEachVariant(
        _ variants: [String], of source: (String) -> String, options: RunOptions, status: Int32, out: String,
        errorMessage: String?, sourceLocation: Testing.SourceLocation
    ) {
        for variant in variants {
            let result = run(source(variant), options: options, format: .text)
            #expect(result.status == status, "\(variant): \(result)", sourceLocation: sourceLocation)
            #expect(result.out == out, "\(variant)", sourceLocation: sourceLocation)
            if let errorMessage {
                #expect(result.err.contains(errorMessage), "\(result.err)", sourceLocation: sourceLocation)
            } else {
                #expect(result.err == "", "\(variant)", sourceLocation: sourceLocation)
            }
        }
    }

    static var observed: String {
        """
        class Account { var balance: Double = 0 }
        class Person { }
        let acct = Account()
        let alice = Person()

        """
    }
}
