@preconcurrency import CReadline
import KVOCore
import KVOScript
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// GNU readline with history in `~/.kvo_history` (`KVO_HISTORY` overrides it;
/// empty disables it), capped at 1000 entries, and Tab completion.
struct ReadlineInput: LineInput {
    let historyPath: String?

    init(session: Session) {
        if let override = getenv("KVO_HISTORY") {
            let path = String(cString: override)
            historyPath = path.isEmpty ? nil : path
        } else if let home = getenv("HOME") {
            historyPath = String(cString: home) + "/.kvo_history"
        } else {
            historyPath = nil
        }
        stifle_history(1000)
        // Timestamp lines mark where each entry starts, so an entry of
        // several lines (a class) comes back whole.
        // (readline writes a timestamp only with a comment character set).
        history_comment_char = CChar(UInt8(ascii: "#"))
        history_write_timestamps = 1
        if let historyPath { Self.readHistory(historyPath) }
        TerminalState.completion = session
        Self.installCompletion()
        Self.installInterruptHandler()
        Self.keepOutputOnInterrupt()
    }

    /// The terminal's settings before `keepOutputOnInterrupt`, put back at exit.
    private nonisolated(unsafe) static var originalSettings: termios?

    /// Ctrl-C makes the terminal driver throw away output written but not
    /// yet shown (a printing loop lost a few hundred lines already printed)
    /// unless NOFLSH is set: set it for the session, readline keeps it (it
    /// saves and restores the settings it finds), and put the old ones back
    /// at exit.
    private static func keepOutputOnInterrupt() {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
        originalSettings = settings
        settings.c_lflag |= tcflag_t(NOFLSH)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &settings) == 0 else { return }
        atexit {
            guard var original = ReadlineInput.originalSettings else { return }
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &original)
        }
    }

    /// Reads the history file. One written before entries were timestamped
    /// has one entry a line: read as such, then stamped, since joining its
    /// lines as one entry would make the whole file one entry.
    private static func readHistory(_ path: String) {
        var first = [CChar](repeating: 0, count: 3)
        var stamped = false
        if let file = fopen(path, "r") {
            if fgets(&first, 3, file) != nil {
                stamped = first[0] == CChar(UInt8(ascii: "#")) && isdigit(Int32(first[1])) != 0
            }
            fclose(file)
        }
        history_multiline_entries = stamped ? 1 : 0
        _ = read_history(path)
        history_multiline_entries = 1
        guard !stamped else { return }
        var entries: [String] = []
        var offset: Int32 = 0
        while let entry = history_get(history_base + offset), let line = entry.pointee.line {
            entries.append(String(cString: line))
            offset += 1
        }
        clear_history()
        for entry in entries { add_history(entry) }
    }

    /// Reads a line with readline's callback interface, as Python does, so
    /// that Ctrl-C is handled here, outside the signal handler, with readline
    /// between keys: whatever it was doing (a Ctrl-R search, a numeric
    /// argument, a half-typed key sequence) is cancelled with the line. With
    /// blocking `readline()`, a search interrupted from the handler stayed
    /// active under a fresh prompt and took the next keys.
    mutating func readLine(prompt: String) -> String? {
        TerminalState.lineRead = .waiting
        TerminalState.reading.store(true, ordering: .relaxed)
        defer { TerminalState.reading.store(false, ordering: .relaxed) }
        rl_callback_handler_install(prompt) { raw in
            // nil: Ctrl-D on an empty line, or the end of input.
            TerminalState.lineRead = raw.map { .line(String(cString: $0)) } ?? .endOfInput
            free(raw)
            rl_callback_handler_remove()
        }
        let input = fileno(rl_instream ?? stdin)
        while case .waiting = TerminalState.lineRead {
            if TerminalState.abandonEntry.load(ordering: .relaxed) {
                Self.cancelLine()
                return ""
            }
            var descriptors = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: TerminalState.wakeUp.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno != EINTR {
                rl_callback_handler_remove()
                return nil
            }
            if descriptors[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                _ = read(TerminalState.wakeUp.read, &drained, drained.count)
            }
            if descriptors[0].revents != 0 && !TerminalState.abandonEntry.load(ordering: .relaxed) {
                rl_callback_read_char()
            }
        }
        if case .line(let line) = TerminalState.lineRead { return line }
        return nil
    }

    /// Ctrl-C while typing: readline forgets the line and any search or
    /// argument in progress, gives the terminal back, and the next prompt
    /// starts afresh at the end of the history.
    private static func cancelLine() {
        rl_free_line_state()
        rl_callback_sigcleanup()
        // The abandoned line stays on screen whole, `^C` after it, as in bash.
        rl_point = rl_end
        rl_redisplay()
        rl_cleanup_after_signal()
        rl_callback_handler_remove()
        using_history()
        _ = write(1, "^C\n", 3)
    }

    mutating func useCompletion(_ source: any CompletionSource) {
        TerminalState.completion = source
    }

    mutating func remember(_ entry: String) {
        guard !entry.trimmingSpaces().isEmpty else { return }
        add_history(entry)
        if let historyPath {
            _ = write_history(historyPath)
            _ = history_truncate_file(historyPath, 1000)
        }
    }

    /// Word breaks for a file name: spaces only.
    private nonisolated(unsafe) static let fileNameBreaks = strdup(" \t\n")

    private static func installCompletion() {
        rl_readline_name = UnsafePointer(strdup("kvo-run"))
        rl_completer_word_break_characters = UnsafePointer(strdup(" \t\n\"(,[{}=;+-*/<>!&|"))
        rl_completer_quote_characters = nil
        rl_basic_quote_characters = nil  // else readline re-appends the `"` that broke the word
        // After `:load` and `:save` the word is the whole path, `/` and `-` included.
        rl_completion_word_break_hook = {
            let line = rl_line_buffer.map { String(cString: $0) } ?? ""
            let before = String(decoding: line.utf8.prefix(Int(max(0, rl_point))), as: UTF8.self)
            return Completion.takesFileName(before) ? ReadlineInput.fileNameBreaks : nil
        }
        rl_attempted_completion_function = { text, start, _ in
            rl_attempted_completion_over = 1  // never fall back to file names
            guard let text, let source = TerminalState.completion else { return nil }
            let word = String(cString: text)
            let line = rl_line_buffer.map { String(cString: $0) } ?? ""
            let before = String(decoding: line.utf8.prefix(Int(max(0, start))), as: UTF8.self)
            let result = Completion.complete(before: before, word: word, source: source)
            if result.files {
                // `:load` / `:save`: readline's own file-name completion.
                rl_attempted_completion_over = 0
                return nil
            }
            TerminalState.candidates = result.candidates
            rl_completion_append_character = Int32(result.append.utf8.first ?? 0)
            rl_completion_suppress_quote = 1
            rl_completion_suppress_append = result.append.isEmpty ? 1 : 0
            return rl_completion_matches(text) { _, state in
                if state == 0 { TerminalState.nextCandidate = 0 }
                guard TerminalState.nextCandidate < TerminalState.candidates.count else { return nil }
                defer { TerminalState.nextCandidate += 1 }
                return strdup(TerminalState.candidates[TerminalState.nextCandidate])
            }
        }
    }

    /// Ctrl-C while typing clears the line (and a pending multi-line entry);
    /// while a statement runs, it interrupts it and returns to the prompt.
    private static func installInterruptHandler() {
        // This thread reads input and runs entries (LargeStack.run blocks
        // SIGINT on every other thread); a parent may also have started us
        // with SIGINT blocked (masks survive exec).
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
        // Touched once here: the handler must not be the first to initialise it.
        TerminalState.interrupt.clear()
        rl_catch_signals = 0
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
            TerminalState.wakeUp = (ends[0], ends[1])
        }
        // Only async-signal-safe work here: a flag and a byte down the pipe;
        // `readLine` does the rest between keys.
        signal(SIGINT) { _ in
            if TerminalState.reading.load(ordering: .relaxed) {
                TerminalState.abandonEntry.store(true, ordering: .relaxed)
                var byte: UInt8 = 0
                _ = write(TerminalState.wakeUp.write, &byte, 1)
            } else {
                TerminalState.interrupt.request(.interrupt)
            }
        }
    }
}
