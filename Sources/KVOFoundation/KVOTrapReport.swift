#if canImport(Glibc)
import Glibc
#endif

/// Where a trap or a crash happened, for kvo-run to report: the statement
/// the program was running (`_kvoAt`), written by a signal handler to the
/// file kvo-run names (`ProgramChannel.TrapMark`, whose format `write` spells). Only async-signal-safe calls run in
/// the handler (digits by hand, `write`), on its own stack, so a stack
/// overflow can be reported too; then the signal's default action ends the
/// program as before.
///
/// Its statics are process state by nature: a signal handler is a C
/// function with no context, so what it reads must be reachable from a
/// global, and plain integers (not `_KVOProcess.shared`, whose lazy start
/// and reference counting are not async-signal-safe). Written once, before
/// the program's first statement. The statement is the trapping thread's
/// (its `_KVOMark`, read from its thread-specific slot: a trap is delivered
/// to the thread that traps), else the main thread's.
enum _KVOTrapReport {
    nonisolated(unsafe) static var descriptor: Int32 = -1
    nonisolated(unsafe) static var marksKey = pthread_key_t()
    nonisolated(unsafe) static var mainMarks: UnsafeMutablePointer<_KVOMark>?

    static func install(path: String, marks: _KVOMarks) {
        marksKey = marks.key
        mainMarks = marks.main
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return }
        let size = 1 << 16
        if let stack = malloc(size) {
            var alternate = stack_t(ss_sp: stack, ss_flags: 0, ss_size: size)
            sigaltstack(&alternate, nil)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            _KVOTrapReport.write()
            // With --format json, the program's own lines before the trap.
            _KVORawOutputCapture.writeAtTrap()
            // SA_RESETHAND restored the default action: a fault traps again
            // on return; a signal sent from outside is sent again.
            if signal == SIGTERM || signal == SIGINT { raise(signal) }
        }
        action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_ONSTACK))
        // SIGTERM is how kvo-run stops a program past --timeout, SIGINT is Ctrl-C.
        for signal in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGTERM, SIGINT] {
            sigaction(signal, &action, nil)
        }
    }

    /// `LINE COLUMN\n`, without allocating.
    static func write() {
        var buffer:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
            )
        withUnsafeMutableBytes(of: &buffer) { bytes in
            var count = 0
            func put(_ number: Int) {
                var value = max(0, number)
                var digits = 0
                var probe = value
                repeat {
                    digits += 1
                    probe /= 10
                } while probe > 0
                var position = count + digits
                repeat {
                    position -= 1
                    bytes[position] = UInt8(48 + value % 10)
                    value /= 10
                } while value > 0
                count += digits
            }
            let mark = pthread_getspecific(marksKey)?.assumingMemoryBound(to: _KVOMark.self) ?? mainMarks
            put(min(mark?.pointee.line ?? 0, 999_999_999))
            bytes[count] = 32
            count += 1
            put(min(mark?.pointee.statementColumn ?? 0, 999_999_999))
            bytes[count] = 10
            count += 1
            _ = Glibc.write(descriptor, bytes.baseAddress, count)
        }
    }
}
