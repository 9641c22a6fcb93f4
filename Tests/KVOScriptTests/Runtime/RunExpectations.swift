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

    static var observed: String {
        """
        class Account { var balance: Double = 0 }
        class Person { }
        let acct = Account()
        let alice = Person()

        """
    }
}
