#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KVOCore
import KVOOutput
import KVOScript

/// Where rendered output goes: a file descriptor with a large buffer, so a
/// million notification lines cost a few hundred writes, not a million.
///
/// The buffer is a plain block of bytes copied into with `memcpy`: appending
/// to an `[UInt8]` costs a uniqueness check and a generic copy per piece, and a
/// notification line has a dozen pieces.
public final class OutputWriter {
    private let descriptor: Int32
    private let storage: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    /// In-memory writers (golden tests, embedding) keep everything here.
    public private(set) var captured: [UInt8] = []
    private let capturing: Bool
    /// Flush after every write (a terminal, where the user is watching).
    public var flushesEachLine: Bool
    /// Why output stopped: a failed write (`cannot write standard output: No
    /// space left on device`) or a capture past `captureLimit`. From then on
    /// writes are dropped, and the running scenario is asked to stop
    /// (`StopRequest.outputFailed`): a print loop into a closed pipe must end.
    public private(set) var failure: String?
    /// Most bytes an in-memory writer keeps (golden tests): a looping
    /// scenario would otherwise fill memory.
    public var captureLimit = OutputWriter.defaultCaptureLimit
    public static let defaultCaptureLimit = 16 << 20
    /// Names the stream in failure messages.
    private let streamName: String
    /// Asked to stop the running scenario when output fails: the session's
    /// flag once a session writes here (`EventRenderer.connect(stop:)`).
    public var stop = StopFlag()
    /// Told the failure, once, when it happens: kvo-run's standard output
    /// (`EventRenderer.standardStreams`) makes it the process's failure.
    public var onFailure: ((String) -> Void)?

    public init(descriptor: Int32, bufferSize: Int = 1 << 16) {
        self.descriptor = descriptor
        self.capacity = max(bufferSize, 256)
        self.storage = .allocate(capacity: capacity)
        self.flushesEachLine = isatty(descriptor) != 0
        self.capturing = false
        self.streamName =
            descriptor == 1 ? "standard output" : descriptor == 2 ? "standard error" : "descriptor \(descriptor)"
    }

    /// A writer that keeps what is written, for `capturedText`.
    public init(capturing: Void) {
        self.descriptor = -1
        self.capacity = 1 << 16
        self.storage = .allocate(capacity: capacity)
        self.flushesEachLine = false
        self.capturing = true
        self.streamName = "captured output"
    }

    deinit {
        flush()
        storage.deallocate()
    }

    public var capturedText: String {
        flush()
        return String(decoding: captured, as: UTF8.self)
    }

    public func write(_ text: String) {
        appendText(text)
        if flushesEachLine { flush() }
    }

    public func flush() {
        guard count > 0 else { return }
        send(UnsafeRawBufferPointer(start: storage, count: count))
        count = 0
    }

    /// Copies `bytes` into the buffer, writing the buffer out first when full.
    @inline(__always)
    private func append(bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity {
            flush()
            if bytes.count > capacity { return send(bytes) }
        }
        UnsafeMutableRawPointer(storage + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// `16 MiB`, `64 KiB`, `100 bytes`: a limit in the unit it was set in.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// Passes bytes on: to the descriptor, or to `captured`.
    private func send(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        if capturing {
            if captured.count + bytes.count > captureLimit {
                captured.append(
                    contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(max(0, captureLimit - captured.count))))
                fail("the scenario printed more than \(Self.size(captureLimit)); its output was cut there")
                return
            }
            captured.append(contentsOf: bytes)
            return
        }
        let failure = writeFully(bytes, to: descriptor)
        if failure != 0 { fail("cannot write \(streamName): \(String(cString: strerror(failure)))") }
    }

    /// Records the first failure and asks the running scenario to stop.
    private func fail(_ message: String) {
        failure = message
        onFailure?(message)
        count = 0
        stop.request(.outputFailed)
    }

    /// A literal's bytes, straight from the binary: no String to unpack.
    @inline(__always)
    public func appendLiteral(_ literal: StaticString) {
        append(bytes: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    public func appendText(_ text: String) {
        // Native strings (and small ones) lend their bytes without a copy.
        if text.utf8.withContiguousStorageIfAvailable({ append(bytes: UnsafeRawBufferPointer($0)) }) != nil { return }
        var text = text
        text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// `text` with `ControlCharacters` escaped: key paths come from script
    /// strings. One scan of the bytes; only a line that has such a byte pays more.
    public func appendEscapingControls(_ text: String) {
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return false }
            append(bytes: UnsafeRawBufferPointer(bytes))
            return true
        }
        if plain == true { return }
        appendText(ControlCharacters.escaping(text))
    }

    public func appendInt(_ number: Int) {
        guard number >= 0 else { return appendText(String(number)) }
        // Digits straight into the buffer (capacity is at least 256 bytes).
        var digits = 1
        var probe = number
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        if count + digits > capacity { flush() }
        var rest = number
        var position = count + digits
        repeat {
            position -= 1
            storage[position] = UInt8(truncatingIfNeeded: 48 + rest % 10)
            rest /= 10
        } while rest > 0
        count += digits
    }

    public func appendValue(_ value: Value) {
        switch value {
        // A negative number is quoted (`"-1"`): collectionDescription writes it.
        case .int(let number) where number >= 0: appendInt(number)
        case .null: appendLiteral("<null>")
        case .object(let object):
            appendLiteral("<")
            appendText(object.cls.name)
            appendLiteral(": ")
            appendText(object.name)
            appendLiteral(">")
        default: appendText(value.collectionDescription)
        }
    }

    /// The end of a line: written out at once on a terminal, where the user is watching.
    public func endLine() {
        appendLiteral("\n")
        if flushesEachLine { flush() }
    }
}

extension OutputWriter: LineSink {}

/// Writes every byte to `descriptor`, retrying short and interrupted
/// writes; 0 on success, else the `errno` of the failure (EIO when nothing
/// could be written). The one write-all loop: the writers here and every
/// file and stream kvo-run writes (`Files`, `Runner`).
public func writeFully(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
    guard let base = bytes.baseAddress else { return 0 }
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, base + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return written < 0 ? errno : EIO }
        offset += written
    }
    return 0
}
