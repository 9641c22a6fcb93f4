import KVOCore
import KVOOutput

#if canImport(Glibc)
import Glibc
#endif

/// With `--format json`, what a program writes to its standard output by
/// itself — `FileHandle.standardOutput.write`, `fputs(…, stdout)`,
/// `putchar`, `write(1, …)` — would land raw in the JSON Lines stream and
/// break every reader of it. So the runtime gives descriptor 1 to a pipe of
/// its own and writes its events to a duplicate of the original descriptor:
/// each line the program writes becomes a `print` event, in program order
/// with the runtime's events.
///
/// Order: before each event the runtime flushes stdio's buffer into the pipe
/// and takes in what the pipe holds (`takeWritten`), so a line written
/// before a notification comes before it. A thread of its own empties the
/// pipe meanwhile, so that a program writing more than the pipe holds
/// between two events never blocks; it keeps the bytes, and turns them into
/// events itself only past `heldLimit` (then at the depth of the runtime's
/// last event), so that the output is the same from run to run.
/// At a trap or a crash the signal handler writes out what was taken in and
/// what the pipe holds (`writeAtTrap`), as text printed before a trap is
/// shown; only stdio's buffer of an unfinished line is lost, as on a Mac.
final class _KVORawOutputCapture: @unchecked Sendable {
    /// Where the events go: kvo-run's standard output.
    let events: UnsafeMutablePointer<FILE>
    private let readEnd: Int32
    private var mutex = pthread_mutex_t()
    /// Bytes read from the pipe, not yet written as events: a fixed buffer
    /// (never moved, so that the signal handler can read it), `heldCount` long.
    private let held: UnsafeMutablePointer<UInt8>
    /// Past this, the thread writes whole lines itself (at `lastDepth`).
    private static let heldLimit = 1 << 20
    private static let readSize = 1 << 16
    /// What the signal handler reads: plain values at a fixed place.
    private struct Shared {
        var held: UnsafeMutablePointer<UInt8>
        var heldCount = 0
        /// The depth of the last event, for the lines written without one.
        var lastDepth = 0
        var readEnd: Int32
        var eventsDescriptor: Int32
    }
    private let shared: UnsafeMutablePointer<Shared>
    private var heldCount: Int {
        get { shared.pointee.heldCount }
        set { shared.pointee.heldCount = newValue }
    }
    private var lastDepth: Int {
        get { shared.pointee.lastDepth }
        set { shared.pointee.lastDepth = newValue }
    }
    /// For the signal handler, a C function without context.
    nonisolated(unsafe) private static var installed: UnsafeMutablePointer<Shared>?

    /// Takes descriptor 1 for the pipe; nil (nothing changed) when a
    /// descriptor or the thread cannot be had.
    init?() {
        let original = dup(STDOUT_FILENO)
        guard original >= 0 else { return nil }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(original)
            return nil
        }
        guard let events = fdopen(original, "w") else {
            close(original)
            close(ends[0])
            close(ends[1])
            return nil
        }
        fflush(stdout)
        guard dup2(ends[1], STDOUT_FILENO) >= 0 else {
            fclose(events)
            close(ends[0])
            close(ends[1])
            return nil
        }
        close(ends[1])
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(original, F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        // Line by line, as the runtime's standard output was.
        setvbuf(events, nil, _IOLBF, 0)
        self.events = events
        self.readEnd = ends[0]
        held = .allocate(capacity: Self.heldLimit + Self.readSize)
        shared = .allocate(capacity: 1)
        shared.initialize(to: Shared(held: held, readEnd: ends[0], eventsDescriptor: original))
        pthread_mutex_init(&mutex, nil)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<_KVORawOutputCapture>.fromOpaque(context).takeUnretainedValue().keepEmptying()
                return nil
            }, context)
        if started == 0 {
            pthread_detach(thread)
        } else {
            // Without the thread a full pipe would block the program: give
            // descriptor 1 back.
            Unmanaged<_KVORawOutputCapture>.fromOpaque(context).release()
            dup2(original, STDOUT_FILENO)
            fclose(events)
            close(ends[0])
            held.deallocate()
            shared.deallocate()
            return nil
        }
        Self.installed = shared
    }

    /// Writes an event's text after what the program wrote before it.
    /// `depth`: the depth now, which the program's lines are printed at.
    func write(_ text: String, depth: Int) {
        // Outside the mutex: a pipe full of stdio's buffer is emptied by the
        // thread, which needs the mutex.
        fflush(stdout)
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        takeWritten(depth: depth, endingOpenLine: true)
        lastDepth = depth
        fputs(text, events)
    }

    /// As a handler returns: its lines are printed at its depth, not at the
    /// depth of the event that comes next.
    func endHandler(depth: Int) {
        fflush(stdout)
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        takeWritten(depth: depth, endingOpenLine: true)
    }

    /// The REPL's new entry begins (`_kvoEntryBegins`): what the earlier
    /// entries wrote goes, as events, where theirs went (out of sight), and
    /// from here on the events go to `descriptor` (the terminal's). The
    /// pipe stays descriptor 1, so the new entry's raw writes are still
    /// events; the events keep their descriptor's number (the trap handler's).
    func moveEvents(to descriptor: Int32, depth: Int) {
        fflush(stdout)
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        takeWritten(depth: depth, endingOpenLine: true)
        fflush(events)
        dup2(descriptor, shared.pointee.eventsDescriptor)
    }

    /// At the end: what the program wrote last, its open line too, and the
    /// events' stream flushed. False when the events could not be written.
    func finish(depth: Int) -> Bool {
        fflush(stdout)
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        takeWritten(depth: depth, endingOpenLine: true)
        return fflush(events) == 0 && ferror(events) == 0
    }

    /// Reads what the pipe holds now and writes each whole line as a `print`
    /// event; with `endingOpenLine`, a line not ended yet as well (as
    /// `print(…, terminator: "")` is before an event). The mutex is held.
    private func takeWritten(depth: Int, endingOpenLine: Bool) {
        while readAvailable() {
            writeLines(depth: depth, endingOpenLine: false)
        }
        writeLines(depth: depth, endingOpenLine: endingOpenLine)
    }

    /// Writes the whole lines held (and the open one with `endingOpenLine`)
    /// and keeps the rest at the buffer's start.
    private func writeLines(depth: Int, endingOpenLine: Bool) {
        let bytes = UnsafeBufferPointer(start: held, count: heldCount)
        var start = 0
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            writeLine(bytes[start..<newline], depth: depth)
            start = newline + 1
        }
        if start == 0 && heldCount >= Self.heldLimit || endingOpenLine && start < heldCount {
            // A line longer than the buffer, or the open line before an event.
            writeLine(bytes[start...], depth: depth)
            start = heldCount
        }
        if start > 0 {
            memmove(held, held + start, heldCount - start)
            heldCount -= start
        }
    }

    private func writeLine(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, depth: Int) {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
        fputs(JSONFormat.render(.print(text: text, depth: depth)) + "\n", events)
    }

    /// Reads what the pipe holds, without waiting, until the buffer is
    /// full. True when the buffer is full and the pipe may hold more.
    private func readAvailable() -> Bool {
        while heldCount < Self.heldLimit {
            let count = read(readEnd, held + heldCount, Self.heldLimit + Self.readSize - heldCount)
            if count > 0 {
                heldCount += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// The thread: waits for the pipe to hold something and takes it in.
    private func keepEmptying() {
        var watched = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&watched, 1, -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            pthread_mutex_lock(&mutex)
            while readAvailable() {
                writeLines(depth: lastDepth, endingOpenLine: false)
            }
            pthread_mutex_unlock(&mutex)
            // Every writer gone (the end of the process): nothing more comes.
            if watched.revents & Int16(POLLHUP) != 0 && watched.revents & Int16(POLLIN) == 0 { return }
        }
    }

    /// At a trap or a crash, from its signal handler: what was taken in and
    /// what the pipe holds, as `print` events, with only async-signal-safe
    /// calls (`read`, `write`, bytes escaped by hand: control characters as
    /// `JSONFormat.string` escapes them, other bytes as they are).
    static func writeAtTrap() {
        guard let state = installed else { return }
        let shared = state.pointee
        var line = _KVOSignalSafeBuffer(descriptor: shared.eventsDescriptor)
        var open = false
        func take(_ byte: UInt8) {
            if !open {
                line.append("{\"event\":\"print\",\"text\":\"")
                open = true
            }
            if byte == UInt8(ascii: "\n") {
                line.append("\",\"depth\":")
                line.append(number: shared.lastDepth)
                line.append("}\n")
                open = false
                return
            }
            switch byte {
            case UInt8(ascii: "\""): line.append("\\\"")
            case UInt8(ascii: "\\"): line.append("\\\\")
            case UInt8(ascii: "\r"): line.append("\\r")
            case UInt8(ascii: "\t"): line.append("\\t")
            case 0..<0x20, 0x7F:
                line.append("\\u00")
                let digits: StaticString = "0123456789abcdef"
                line.append(byte: digits.utf8Start[Int(byte >> 4)])
                line.append(byte: digits.utf8Start[Int(byte & 0xF)])
            default: line.append(byte: byte)
            }
        }
        for index in 0..<min(shared.heldCount, heldLimit + readSize) { take(shared.held[index]) }
        var chunk: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &chunk) { bytes in
            while true {
                let count = read(shared.readEnd, bytes.baseAddress, bytes.count)
                guard count > 0 else { break }
                for index in 0..<count { take(bytes[index]) }
            }
        }
        if open { take(UInt8(ascii: "\n")) }
        line.flush()
    }
}

/// Bytes gathered on the stack and written with `write(2)`: what a signal
/// handler may do.
struct _KVOSignalSafeBuffer {
    let descriptor: Int32
    private var bytes:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    private static let capacity = 128

    init(descriptor: Int32) { self.descriptor = descriptor }

    mutating func append(byte: UInt8) {
        if count == Self.capacity { flush() }
        withUnsafeMutableBytes(of: &bytes) { $0[count] = byte }
        count += 1
    }

    mutating func append(_ text: StaticString) {
        for index in 0..<text.utf8CodeUnitCount { append(byte: text.utf8Start[index]) }
    }

    mutating func append(number: Int) {
        var value = max(0, min(number, 999_999_999))
        var divisor = 1
        while divisor * 10 <= value { divisor *= 10 }
        while divisor > 0 {
            append(byte: UInt8(48 + value / divisor))
            value %= divisor
            divisor /= 10
        }
    }

    mutating func flush() {
        var written = 0
        withUnsafeBytes(of: &bytes) { buffer in
            while written < count {
                let result = write(descriptor, buffer.baseAddress.map { $0 + written }, count - written)
                if result > 0 {
                    written += result
                } else if !(result < 0 && errno == EINTR) {
                    break
                }
            }
        }
        count = 0
    }
}
