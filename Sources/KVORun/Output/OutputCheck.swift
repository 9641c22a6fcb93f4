#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import KVOScript

/// The last word on standard output: every way kvo-run ends goes through
/// `exit` (the commands throw an `ExitCode`, the argument parser exits after
/// printing help, a version, an error or a completion script), and so
/// through this check, installed first thing by the executable.
///
/// Why at exit: output reaches standard output two ways, kvo-run's own
/// writes (`OutputWriter`, `Runner.stdout`), which record a failure in
/// `Runner.outputFailure`, and the C library's buffered `stdout`, which
/// Swift's `print` uses (the argument parser's help and version, the
/// completion scripts) and which the C library flushes at exit without
/// telling anyone it failed. Checked here, `kvo-run --help > /dev/full` and
/// `kvo-run graph x.kvo > /dev/full` fail as `kvo-run x.kvo > /dev/full`
/// does: a message on standard error and status 1.
public enum OutputCheck {
    public static func installAtExit() {
        atexit { OutputCheck.atExit() }
    }

    static func atExit() {
        errno = 0
        if fflush(stdout) != 0 || ferror(stdout) != 0 {
            let why = errno != 0 ? String(cString: strerror(errno)) : "Input/output error"
            Runner.recordOutputFailure("cannot write standard output: \(why)")
        }
        guard Runner.outputFailure != nil else { return }
        Runner.reportOutputFailure()
        // Ends here with the failure's status; the exit already under way
        // would report success.
        _exit(ExitStatus.outputFailed)
    }
}
