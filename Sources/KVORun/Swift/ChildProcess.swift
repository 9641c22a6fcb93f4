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
    /// `deadline` (the run's, `Deadline`) kills it when it passes; one that
    /// has passed already starts nothing (`.timedOut`). `ownGroup`: a tool
    /// step (the compiler, the linker), which leads a process group of its
    /// own so that what it starts is stopped with it, and reads no input.
    /// `standardOutputToError`: without `output`, what the child writes to
    /// standard output goes to kvo-run's standard error (kvo-run's own
    /// standard output carries a picture). `passing` gives the child
    /// kvo-run's descriptors as 3, 4, … (read before `output` replaces 1 and
    /// 2), and `standardInput` names a file to read instead of kvo-run's.
    /// `standardError`, when given without `output`, receives the child's
    /// standard error alone.
    static func run(
        _ program: String, _ arguments: [String], argumentZero: String? = nil,
        environment: [(name: String, value: String)] = [], output: Int32? = nil, deadline: Deadline = .none,
        ownGroup: Bool = false, standardOutputToError: Bool = false,
        passing: [Int32] = [], standardInput: String? = nil, standardError: Int32? = nil
    ) -> Ending {
        if deadline.hasPassed {
            // As if run and stopped at once: no Ctrl-C of an earlier run counts.
            interruptedDuringRun = false
            return .timedOut
        }
        return supervising(group: ownGroup) {
            let started = start(
                program, arguments, argumentZero: argumentZero, environment: environment, output: output,
                ownGroup: ownGroup,
                standardOutputToError: standardOutputToError, passing: passing,
                // A process group that is not the terminal's reading it would be stopped (SIGTTIN).
                standardInput: standardInput ?? (ownGroup ? "/dev/null" : nil), standardError: standardError)
            switch started {
            case .success(let pid):
                return waitSupervised(pid, deadline: deadline, group: ownGroup)
            case .failure(let failure): return .notStarted(failure.reason)
            }
        }
    }

    /// Waits for a child started earlier by `start` (a build step run in
    /// the background) as `run` waits: Ctrl-C, SIGTERM and SIGHUP passed on
    /// to it, killed (with its group, `group`) when `deadline` passes.
    static func supervise(_ pid: pid_t, deadline: Deadline, group: Bool) -> Ending {
        supervising(group: group) { waitSupervised(pid, deadline: deadline, group: group) }
    }

    /// `wait` for the child `supervising` set up for.
    private static func waitSupervised(_ pid: pid_t, deadline: Deadline, group: Bool) -> Ending {
        runningChild = pid
        runningGroup = group
        // A signal that came while the child was being started.
        if forwardedSignal != 0 { kill(group ? -pid : pid, forwardedSignal) }
        if group && interruptedDuringRun { kill(-pid, SIGINT) }
        return wait(pid, deadline: deadline, group: group)
    }

    /// Runs `body`, which starts and waits for a child, with kvo-run's
    /// signals arranged for it: Ctrl-C noted (and passed on to a child in a
    /// group of its own, which the terminal's Ctrl-C does not reach),
    /// SIGTERM and SIGHUP passed on.
    private static func supervising(group: Bool, _ body: () -> Ending) -> Ending {
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
            runningGroup = false
            signal(SIGTERM, previousTerminate)
            signal(SIGHUP, previousHangUp)
            pthread_sigmask(SIG_SETMASK, &blocked, nil)
        }
        return body()
    }

    /// Whether a Ctrl-C came while the last `run` waited (its child may
    /// have ended well all the same).
    nonisolated(unsafe) static var interruptedDuringRun = false

    private static let noteInterrupt: @convention(c) (Int32) -> Void = { _ in
        ChildProcess.interruptedDuringRun = true
        // A tool step in a group of its own does not get the terminal's Ctrl-C.
        if ChildProcess.runningGroup && ChildProcess.runningChild > 0 { kill(-ChildProcess.runningChild, SIGINT) }
    }

    /// The child `run` waits for (0: none), for `forwardToChild`.
    nonisolated(unsafe) static var runningChild: pid_t = 0
    /// Whether `runningChild` leads a process group of its own (a tool step).
    nonisolated(unsafe) static var runningGroup = false
    /// The SIGTERM or SIGHUP kvo-run received while a child ran (0: none).
    nonisolated(unsafe) static var forwardedSignal: Int32 = 0

    /// The handler of SIGTERM and SIGHUP while a child runs: noted, and
    /// passed on (only async-signal-safe calls).
    private static let forwardToChild: @convention(c) (Int32) -> Void = { received in
        ChildProcess.forwardedSignal = received
        let child = ChildProcess.runningChild
        if child > 0 { kill(ChildProcess.runningGroup ? -child : child, received) }
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
    /// caller's to ignore while it runs); `wait` or `supervise` collects it.
    static func start(
        _ program: String, _ arguments: [String], argumentZero: String? = nil,
        environment: [(name: String, value: String)] = [], output: Int32? = nil, ownGroup: Bool = false,
        standardOutputToError: Bool = false,
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
        let argv = ([argumentZero ?? program] + arguments).map { strdup($0) }
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
                    Int32(defaults.count), ownGroup ? 1 : 0)
            }
        }
        guard spawned == 0 else { return .failure(StartFailure(reason: String(cString: strerror(spawned)))) }
        return .success(pid)
    }

    struct StartFailure: Error {
        let reason: String
    }

    /// Waits for the child `pid` to end, killing it when `deadline` passes:
    /// with its whole process group when it leads one (`group`: a tool step,
    /// whose swift-frontend or linker must not outlive it).
    static func wait(_ pid: pid_t, deadline: Deadline = .none, group: Bool = false) -> Ending {
        var status: Int32 = 0
        let started = Clock.now()
        while true {
            let result = waitpid(pid, &status, deadline.end == nil ? 0 : WNOHANG)
            if result == pid { break }
            if result < 0 {
                if errno == EINTR { continue }
                return .notStarted(String(cString: strerror(errno)))
            }
            if deadline.hasPassed {
                stop(pid, group: group)
                return .timedOut
            }
            // Every 5 ms for a second (a cached program's end is seen at
            // once), then every 50 ms: the one-time build's steps, always
            // bounded, wait minutes (at 5 ms, a second of system time).
            var pause = timespec(tv_sec: 0, tv_nsec: Clock.now() - started < 1 ? 5_000_000 : 50_000_000)
            nanosleep(&pause, nil)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
        return .signaled(status & 0x7f)
    }

    /// Stops the child `pid` (and its group, `group`) and collects it.
    /// SIGTERM first: a program's runtime notes where it was, and the
    /// `swiftc` driver removes its temporary folder. Then SIGKILL, to the
    /// whole group even when its leader has ended (a grandchild may ignore
    /// SIGTERM); the leader is collected last, so that its number, which
    /// names the group, cannot be another process's meanwhile.
    static func stop(_ pid: pid_t, group: Bool) {
        let target = group ? -pid : pid
        kill(target, SIGTERM)
        let grace = Clock.now() + 1
        var info = siginfo_t()
        // WNOWAIT: seen to have ended, not yet collected. (What its group
        // still holds then has had its SIGTERM too, and gets SIGKILL.)
        while Clock.now() < grace {
            info._sifields._kill.si_pid = 0
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 && errno != EINTR { break }
            if info._sifields._kill.si_pid == pid { break }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }
        kill(target, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
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
