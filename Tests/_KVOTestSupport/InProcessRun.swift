import Foundation
import KVOCore
import KVOHost
import KVOScript

/// What one in-process run or check of a scenario produced.
public struct ScriptResult: CustomStringConvertible {
    public var status: Int32
    public var out: String
    public var err: String

    public var description: String { "status \(status)\n--- stdout\n\(out)--- stderr\n\(err)" }
}

/// Runs `body` on a thread with a large stack, as the command line does:
/// Swift Testing's worker threads may have small stacks, and the interpreter
/// recurses once per nested call or notification. KVOHost's `LargeStack`, the
/// command line's own runner (its stack guard registered, as in kvo-run).
public func onLargeStack<T>(_ body: @escaping () -> T) -> T {
    LargeStack.run(body)
}

/// A session writing into memory, in `format`, without colour.
public func capturingSession(
    _ options: RunOptions = RunOptions(), format: OutputFormatKind = .text
)
    -> (session: Session, out: OutputWriter, err: OutputWriter)
{
    let out = OutputWriter(capturing: ())
    let err = OutputWriter(capturing: ())
    let renderer = EventRenderer(format: format, out: out, err: err)
    return (Session.commandLine(options: options, output: renderer), out, err)
}

/// `session.run(source, file: "t.kvo")` with captured output.
public func run(
    _ source: String, options: RunOptions = RunOptions(), format: OutputFormatKind = .text,
    file: String = "t.kvo"
) -> ScriptResult {
    onLargeStack {
        let (session, out, err) = capturingSession(options, format: format)
        let status = session.run(source, file: file)
        return ScriptResult(status: status, out: out.capturedText, err: err.capturedText)
    }
}

/// `session.check(source, file: "t.kvo")` with captured output.
public func check(
    _ source: String, options: RunOptions = RunOptions(), format: OutputFormatKind = .text,
    file: String = "t.kvo"
) -> ScriptResult {
    onLargeStack {
        let (session, out, err) = capturingSession(options, format: format)
        let status = session.check(source, file: file)
        return ScriptResult(status: status, out: out.capturedText, err: err.capturedText)
    }
}

/// The package root, found from this file's path (Tests/_KVOTestSupport/…),
/// whatever folder the calling test file is in.
public func packageRoot() -> URL {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // _KVOTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
}
