import KVOOutput

#if canImport(Glibc)
import Glibc
#endif

/// The REPL's Swift mode (SPEC §10.1, §11.0): each entry is compiled after
/// the entries accepted before it, and the whole program runs again. What
/// the earlier entries print was shown when they ran: kvo-run starts the
/// program with standard output and standard error going elsewhere, and
/// gives it the terminal's as descriptors 3 and 4; `_kvoEntryBegins()`, which
/// the rewriter puts before the new entry, switches to them. So whatever
/// writes the earlier entries' output (`print`, the trace, `FileHandle`, a C
/// `puts`) is kept out, and everything from the new entry's first statement
/// on is shown, as it happens.
///
/// The driver passes (`ProgramChannel.REPL`) a file where the program notes
/// that it reached the new entry and the end (kvo-run keeps an entry only
/// when its run reached the end), and each entry's first line in the whole
/// program and the name it goes by in diagnostics (`<repl>` for the new
/// one), so that a run-time error names the entry's own line.
enum _KVOREPL {
    static var entries: [ProgramChannel.REPL.Entry] { _KVOProcess.shared.settings.repl?.entries ?? [] }

    /// Writes `word` and a newline to the marks file.
    static func mark(_ word: String) {
        guard let path = _KVOProcess.shared.settings.repl?.marksFile else { return }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else { return }
        _ = (word + "\n").utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
    }

    /// Ends a line `print(…, terminator: "")` left open: each entry's
    /// output ends with its own last line, as in the interpreter's REPL, and
    /// a replayed entry runs exactly as it did.
    static func endPendingLine() {
        guard !_KVOProcess.shared.partialPrint.isEmpty else { return }
        _KVOPrinter.write("\n", depth: _KVOProcess.shared.kvo.depth)
    }
}

/// Between two entries.
public func _kvoEntryBoundary() {
    _KVOREPL.endPendingLine()
}

/// Before the new entry: from here on, the program writes to the terminal.
public func _kvoEntryBegins() {
    _kvoStart()
    _KVOREPL.endPendingLine()
    fflush(stdout)
    fflush(stderr)
    let process = _KVOProcess.shared
    if process.settings.repl != nil, fcntl(3, F_GETFD) >= 0, fcntl(4, F_GETFD) >= 0 {
        // With --format json descriptor 1 is the pipe that makes the
        // program's raw writes events (`_KVORawOutputCapture`), and the
        // events have a descriptor of their own: that one moves.
        if let capture = process.output.capture {
            process.lock.held { capture.moveEvents(to: 3, depth: process.kvo.depth) }
        } else {
            dup2(3, 1)
        }
        dup2(4, 2)
        close(3)
        close(4)
    }
    // `:explain on` explains the new entry (the earlier ones are not shown).
    if process.settings.explain { process.lock.held { process.kvo.explains = true } }
    _KVOREPL.mark(ProgramChannel.REPL.begins)
}

/// After the new entry: its run reached the end. `classes` are the
/// program's top-level classes (the rewriter lists them), for the state the
/// REPL asked for, written before the mark that keeps the entry.
public func _kvoEntryEnds(_ classes: [AnyObject.Type] = []) {
    _kvoStart()
    _KVOREPL.endPendingLine()
    fflush(stdout)
    let process = _KVOProcess.shared
    if let state = process.replState { process.lock.held { state.write(declared: classes, process: process) } }
    _KVOREPL.mark(ProgramChannel.REPL.ends)
}

extension _KVOProcess {
    /// The file and line a diagnostic names for line `line` of the program:
    /// in the REPL, the entry that holds it and the line within the entry.
    func shown(_ line: Int) -> (file: String, line: Int) {
        guard let entry = _KVOREPL.entries.last(where: { $0.firstLine <= line }) else { return (sourceName, line) }
        return (entry.name, line - entry.firstLine + 1)
    }
}

// MARK: Echo

/// The REPL echoes the value of an expression entered on its own (SPEC
/// §10.1): the rewriter appends `⇢ _kvoEcho` to it. The operator binds more
/// loosely than anything, assignment included, so it takes the whole
/// expression (`try` and all) and leaves columns before it unchanged.
precedencegroup _KVOEchoPrecedence {
    lowerThan: AssignmentPrecedence
}
infix operator ⇢ : _KVOEchoPrecedence

public struct _KVOEchoSink {}
public let _kvoEcho = _KVOEchoSink()

/// A value: the line `print` would write (Swift's own description, with
/// the Foundation descriptions of §11.0), as the REPL writes an echo: on
/// standard output, plain, in text and in JSON alike.
public func ⇢ <T>(value: T, _: _KVOEchoSink) {
    _KVOREPL.endPendingLine()
    let line = _KVOPrinter.describe(value) + "\n"
    // With --format json the program's raw writes become print events
    // (`_KVORawOutputCapture`): the echo goes to the events' stream itself.
    let process = _KVOProcess.shared
    if let capture = process.output.capture {
        process.lock.held { capture.write(line, depth: process.kvo.depth) }
    } else {
        fputs(line, stdout)
    }
}

/// A statement (an assignment, a call that returns nothing): no echo.
public func ⇢ (value: Void, _: _KVOEchoSink) {}

/// An optional chain that returns nothing (`a?.reset()`): no echo.
public func ⇢ (value: Void?, _: _KVOEchoSink) {}
