import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program as a child process: the Swift compiler, or a compiled
/// Swift program (SPEC §11.0), which may trap or die of a signal without
/// taking kvo-run with it.
enum ChildProcess {
    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
        case timedOut
        case notStarted(String)
    }

    /// Runs `program` with `arguments`, `environment` added to kvo-run's own.
    /// `output`, when given, receives both standard output and standard
    /// error (in the order written); otherwise the child shares kvo-run's.
    /// `timeout` (seconds) kills it. `standardOutputToError`: without
    /// `output`, what the child writes to standard output goes to kvo-run's
    /// standard error (kvo-run's own standard output carries a picture).
    /// `passing` gives the child kvo-run's descriptors as 3, 4, … (read
    /// before `output` replaces 1 and 2), and `standardInput` names a file
    /// to read instead of kvo-run's. `standardError`, when given without
    /// `output`, receives the child's standard error alone.
    static func run(
        _ program: String, _ arguments: [String], environment: [(name: String, value: String)] = [],
        output: Int32? = nil, timeout: Double? = nil, standardOutputToError: Bool = false,
        passing: [Int32] = [], standardInput: String? = nil, standardError: Int32? = nil
    ) -> Ending {
        // The child starts with Ctrl-C at its default and nothing blocked,
        // while kvo-run ignores Ctrl-C until the child has ended: the child
        // stops, kvo-run reports it.
        // Not ignored but noted: a Ctrl-C that arrives as a step ends (the
        // child done, exited 0) must still stop what comes next.
        interruptedDuringRun = false
        let previous = signal(SIGINT, noteInterrupt)
        defer { signal(SIGINT, previous) }
        // SIGTERM and SIGHUP (a service stopped, a terminal closed) are passed
        // on to the child, which ends of them; kvo-run then ends of the same
        // signal (`endIfForwarded`), after cleaning up. Unblocked here: a
        // parent (a test runner's thread) may have handed them down blocked.
        _ = (runningChild, forwardedSignal)
        let previousTerminate = signal(SIGTERM, forwardToChild)
        let previousHangUp = signal(SIGHUP, forwardToChild)
        var terminating = sigset_t(), blocked = sigset_t()
        sigemptyset(&terminating)
        sigaddset(&terminating, SIGTERM)
        sigaddset(&terminating, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &terminating, &blocked)
        defer {
            runningChild = 0
            signal(SIGTERM, previousTerminate)
            signal(SIGHUP, previousHangUp)
            pthread_sigmask(SIG_SETMASK, &blocked, nil)
        }
        let started = start(
            program, arguments, environment: environment, output: output,
            standardOutputToError: standardOutputToError, passing: passing, standardInput: standardInput,
            standardError: standardError)
        switch started {
        case .success(let pid):
            runningChild = pid
            // A signal that came while the child was being started.
            if forwardedSignal != 0 { kill(pid, forwardedSignal) }
            return wait(pid, timeout: timeout)
        case .failure(let failure): return .notStarted(failure.reason)
        }
    }

    /// Whether a Ctrl-C came while the last `run` waited (its child may
    /// have ended well all the same).
    nonisolated(unsafe) static var interruptedDuringRun = false

    private static let noteInterrupt: @convention(c) (Int32) -> Void = { _ in
        ChildProcess.interruptedDuringRun = true
    }

    /// The child `run` waits for (0: none), for `forwardToChild`.
    nonisolated(unsafe) static var runningChild: pid_t = 0
    /// The SIGTERM or SIGHUP kvo-run received while a child ran (0: none).
    nonisolated(unsafe) static var forwardedSignal: Int32 = 0

    /// The handler of SIGTERM and SIGHUP while a child runs: noted, and
    /// passed on (only async-signal-safe calls).
    private static let forwardToChild: @convention(c) (Int32) -> Void = { received in
        ChildProcess.forwardedSignal = received
        if ChildProcess.runningChild > 0 { kill(ChildProcess.runningChild, received) }
    }

    /// Ends kvo-run of the SIGTERM or SIGHUP it passed on to a child, if any
    /// (called once the run has cleaned up): its caller sees how it ended.
    static func endIfForwarded() {
        let received = forwardedSignal
        guard received != 0 else { return }
        RuntimeCache.removeTemporaryCache()
        Runner.flushStandardStreams()
        signal(received, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, received)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(received)
        exit(128 + received)
    }

    /// Starts `program` as `run` does, without waiting for it (Ctrl-C is the
    /// caller's to ignore while it runs); `wait` collects it.
    static func start(
        _ program: String, _ arguments: [String], environment: [(name: String, value: String)] = [],
        output: Int32? = nil, standardOutputToError: Bool = false,
        passing: [Int32] = [], standardInput: String? = nil, standardError: Int32? = nil
    ) -> Result<pid_t, StartFailure> {
        // The descriptors the child gets, (from, to) in order.
        var dups: [Int32] = []
        // `output` and `standardError` out of the way of the passed
        // descriptors' new numbers.
        var raised: [Int32] = []
        defer { raised.forEach { close($0) } }
        func outOfTheWay(_ given: Int32?) -> Int32? {
            guard let given, given < 3 + Int32(passing.count) else { return given }
            let moved = fcntl(given, F_DUPFD_CLOEXEC, 3 + Int32(passing.count))
            guard moved >= 0 else { return nil }
            raised.append(moved)
            return moved
        }
        let output = outOfTheWay(output)
        let standardError = outOfTheWay(standardError)
        for (index, descriptor) in passing.enumerated() {
            dups += [descriptor, 3 + Int32(index)]
        }
        if let output {
            dups += [output, 1, output, 2]
        } else {
            // Standard output to kvo-run's standard error first, before that
            // is replaced.
            if standardOutputToError { dups += [2, 1] }
            if let standardError { dups += [standardError, 2] }
        }
        // kvo-run's environment as it is, less the names given, then those:
        // compared as C strings (a dictionary of the whole environment was a
        // tenth of a cached Swift program's work in kvo-run).
        let prefixes = environment.map { Array(($0.name + "=").utf8CString.dropLast()) }
        var envp: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environ[index] {
            index += 1
            let replaced = prefixes.contains { prefix in
                prefix.withUnsafeBufferPointer { buffer in
                    buffer.baseAddress.map { strncmp(entry, $0, prefix.count) == 0 } ?? false
                }
            }
            if !replaced { envp.append(strdup(entry)) }
        }
        for (name, value) in environment { envp.append(strdup(name + "=" + value)) }
        let argv = ([program] + arguments).map { strdup($0) }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The child starts with Ctrl-C at its default and nothing blocked,
        // and dies with kvo-run, even one killed by SIGKILL (kvo_spawn.c says how).
        let defaults: [Int32] = [SIGINT]
        var pid = pid_t()
        let spawned = (argv + [nil]).withUnsafeBufferPointer { argvBuffer -> Int32 in
            (envp + [nil]).withUnsafeBufferPointer { envBuffer -> Int32 in
                guard let argvBase = argvBuffer.baseAddress, let envBase = envBuffer.baseAddress else { return EINVAL }
                return kvo_spawn(
                    &pid, program, argvBase, envBase, dups, Int32(dups.count / 2), standardInput, defaults,
                    Int32(defaults.count))
            }
        }
        guard spawned == 0 else { return .failure(StartFailure(reason: String(cString: strerror(spawned)))) }
        return .success(pid)
    }

    struct StartFailure: Error {
        let reason: String
    }

    /// Waits for the child `pid` to end, killing it after `timeout` seconds.
    static func wait(_ pid: pid_t, timeout: Double? = nil) -> Ending {
        let deadline = timeout.map { Clock.now() + $0 }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
            if result == pid { break }
            if result < 0 {
                if errno == EINTR { continue }
                return .notStarted(String(cString: strerror(errno)))
            }
            if let deadline, Clock.now() > deadline {
                // SIGTERM first: the program's runtime notes where it was.
                kill(pid, SIGTERM)
                let grace = Clock.now() + 1
                while waitpid(pid, &status, WNOHANG) == 0 && Clock.now() < grace {
                    var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
                    nanosleep(&pause, nil)
                }
                if kill(pid, 0) == 0 {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                }
                return .timedOut
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
        return .signaled(status & 0x7f)
    }

    /// How a child ended, in words: "`swiftc` …", "the rewriter …".
    static func describe(_ ending: Ending) -> String {
        switch ending {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let signal): "was stopped by \(describe(signal: signal))"
        case .timedOut: "took too long"
        case .notStarted(let why): "could not be started (\(why))"
        }
    }

    /// What a signal that ended a program means, in words.
    static func describe(signal: Int32) -> String {
        switch signal {
        case SIGILL, SIGTRAP: return "a Swift runtime trap (signal \(signal)): see the 'Fatal error' above"
        case SIGSEGV: return "a segmentation fault (SIGSEGV), such as a stack overflow from deep recursion"
        case SIGBUS: return "a bus error (SIGBUS)"
        case SIGABRT: return "an abort (SIGABRT)"
        case SIGINT: return "an interrupt (Ctrl-C)"
        case SIGKILL: return "SIGKILL"
        case SIGFPE: return "an arithmetic error (SIGFPE)"
        default: return "signal \(signal)"
        }
    }
}
