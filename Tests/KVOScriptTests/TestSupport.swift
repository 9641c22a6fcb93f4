import Foundation
import KVOCore
@testable import KVOScript

/// What one in-process run or check of a scenario produced.
struct ScriptResult: CustomStringConvertible {
    var status: Int32
    var out: String
    var err: String

    var description: String { "status \(status)\n--- stdout\n\(out)--- stderr\n\(err)" }
}

/// Runs `body` on a thread with a large stack, as the command line does
/// (`LargeStack` in kvo-run): Swift Testing's worker threads may have small
/// stacks, and the interpreter recurses once per nested call or notification.
func onLargeStack<T>(_ body: @escaping () -> T) -> T {
    let box = LargeStackJob(body)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = box.body()
        done.signal()
    }
    thread.stackSize = 512 << 20
    thread.start()
    done.wait()
    return box.value!
}

private final class LargeStackJob<T>: @unchecked Sendable {
    var value: T?
    let body: () -> T
    init(_ body: @escaping () -> T) { self.body = body }
}

/// `session.run(source, file: "t.kvo")` with captured output.
func run(_ source: String, options: RunOptions = RunOptions(), file: String = "t.kvo") -> ScriptResult {
    onLargeStack {
        let out = OutputWriter(capturing: ())
        let err = OutputWriter(capturing: ())
        let session = Session(options: options, out: out, err: err)
        let status = session.run(source, file: file)
        return ScriptResult(status: status, out: out.capturedText, err: err.capturedText)
    }
}

/// `session.check(source, file: "t.kvo")` with captured output.
func check(_ source: String, options: RunOptions = RunOptions(), file: String = "t.kvo") -> ScriptResult {
    onLargeStack {
        let out = OutputWriter(capturing: ())
        let err = OutputWriter(capturing: ())
        let session = Session(options: options, out: out, err: err)
        let status = session.check(source, file: file)
        return ScriptResult(status: status, out: out.capturedText, err: err.capturedText)
    }
}

/// The package root, found from this file's path (Tests/KVOScriptTests/…).
func packageRoot(_ filePath: String = #filePath) -> URL {
    URL(fileURLWithPath: filePath)
        .deletingLastPathComponent()  // KVOScriptTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
}
