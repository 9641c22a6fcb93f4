// libFuzzer entry point over the whole pipeline: lexer, parser, checker and
// interpreter (docs/language.md#diagnostics: "Nothing a script does, however malformed or deep,
// crashes the program or overflows its stack").
//
// Built by `make fuzz` (see the Makefile) with
//   swiftc -sanitize=fuzzer,address -parse-as-library
// against KVOCore and KVOScript compiled as separate modules. Each input runs
// in a fresh Session with small limits, on a thread with a large stack (as
// kvo-run itself does), with --keep-going and --explain chosen by the input's
// last byte, so more of a script runs after its first error and the explain
// paths run too.
import KVOCore
import KVOScript
#if canImport(Glibc)
import Glibc
#endif

/// Takes a session's events and diagnostics as kvo-run's text output would,
/// through the describers KVOCore and KVOScript own (change dictionaries,
/// observation infos, diagnostics with their caret lines), and keeps only a
/// count. The output writers live in KVORun, which this target does not build
/// (it needs swift-argument-parser and readline).
private final class FuzzOutput: ScriptOutput {
    var characters = 0
    func emit(_ event: consuming Event) {
        switch event {
        case .notify(_, _, _, let change, _, _):
            var text = ""
            change.describe(into: &text)
            characters += text.utf8.count
        case .print(let text, _): characters += text.utf8.count
        case .exception(let exception, _): characters += exception.reason.utf8.count
        case .observationInfo(let object, _, _): characters += (object.observationInfoDescription ?? "").utf8.count
        case .explain, .graph: characters += 1
        }
    }
    func report(_ diagnostic: Diagnostic, file: String, source: SourceText) {
        characters += diagnostic.render(file: file, source: source).utf8.count
    }
    func flush() {}
}

private final class FuzzJob: @unchecked Sendable {
    let source: String
    let keepGoing: Bool
    let explain: Bool
    init(source: String, keepGoing: Bool, explain: Bool) {
        self.source = source
        self.keepGoing = keepGoing
        self.explain = explain
    }

    func run() {
        var options = RunOptions()
        options.maxSteps = 5_000
        options.maxDepth = 50
        options.keepGoing = keepGoing
        options.explain = explain
        let session = Session(options: options, output: FuzzOutput())
        let status = session.run(source, file: "fuzz.kvo")
        if status != 0 && status != 1 && status != 2 {
            fatalError("unexpected exit status \(status)")
        }
    }
}

/// The interpreter recurses per nesting level; kvo-run gives it a 1 GB stack.
/// ASan frames are bigger, so inputs run on one long-lived worker thread with
/// a 512 MB stack (reserved, not committed). One thread for the whole run, not
/// one per input: creating and tearing down a thread with a big stack under
/// ASan (its shadow memory is cleared on exit) cost more than most inputs.
private let stackSize = 512 << 20

private final class Worker: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var job: FuzzJob?
    private var done = false

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Worker>.fromOpaque(raw!).takeUnretainedValue().loop()
            return nil
        }, Unmanaged.passRetained(self).toOpaque())
        precondition(created == 0, "cannot create the fuzz worker thread")
    }

    private func loop() -> Never {
        // As kvo-run does on its own large thread: deep recursion ends in an
        // error while there is stack left, so only paths that skip the guard
        // can overflow (and those are bugs).
        StackGuard.registerCurrentThread(stackSize: UInt(stackSize), margin: 64 << 20)
        pthread_mutex_lock(&mutex)
        while true {
            while job == nil { pthread_cond_wait(&condition, &mutex) }
            let current = job!
            pthread_mutex_unlock(&mutex)
            current.run()
            pthread_mutex_lock(&mutex)
            job = nil
            done = true
            pthread_cond_broadcast(&condition)
        }
    }

    /// Runs `work` on the worker thread and waits for it.
    func perform(_ work: FuzzJob) {
        pthread_mutex_lock(&mutex)
        job = work
        done = false
        pthread_cond_broadcast(&condition)
        while !done { pthread_cond_wait(&condition, &mutex) }
        pthread_mutex_unlock(&mutex)
    }
}

nonisolated(unsafe) private let worker = Worker()

/// With KVO_FUZZ_LAST_INPUT=PATH, each input is written to PATH before it runs.
/// A crash that kills the process before libFuzzer's handler can save the
/// input (a stack overflow takes the handler's stack with it) then leaves the
/// input on disk.
nonisolated(unsafe) private let lastInputPath: String? = getenv("KVO_FUZZ_LAST_INPUT").map { String(cString: $0) }

private func saveLastInput(_ data: UnsafePointer<UInt8>, _ size: Int) {
    guard let path = lastInputPath else { return }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { return }
    _ = write(descriptor, data, size)
    close(descriptor)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    saveLastInput(data, size)
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // Like Files.read: invalid UTF-8 is repaired, never rejected.
    let source = String(decoding: bytes, as: UTF8.self)
    // Cheap, deterministic variation of the options from the input itself.
    let selector = size == 0 ? 0 : Int(data[size - 1])
    worker.perform(FuzzJob(source: source, keepGoing: selector & 1 == 1, explain: selector & 2 == 2))
    return 0
}
