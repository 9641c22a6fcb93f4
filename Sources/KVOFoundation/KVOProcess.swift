@_exported import Foundation
import KVOCore
import KVOOutput

#if canImport(Glibc)
import Glibc
#endif

/// The one KVO engine of a compiled Swift program (SPEC §11.0) and what it
/// reports through: the events go to standard output in kvo-run's text or
/// JSON format, diagnostics about the run to standard error, as `kvo-run`
/// prints them for a scenario. The driver passes the options in the
/// environment (KVOOutput's `ProgramChannel.Settings`), and asks for
/// counts and pictures back in files (`_KVOPictures`, `_KVORunReport`).
///
/// A program may use threads: KVO is delivered on the thread that makes the
/// change, as on a Mac, and every entry into the runtime holds `lock`
/// (`_KVOLock` says why one recursive lock).
///
/// One compiled program is one process with one KVO runtime, as on a Mac:
/// `shared` is the one process-wide object, and everything the runtime
/// keeps lives in it (the class tables of `_KVOClassTable`, the printer's
/// unfinished line, the bridge's foreign values). The only other statics
/// are `_KVOTrapReport`'s, which a signal handler reads.
public final class _KVOProcess {
    nonisolated(unsafe) public static let shared = _KVOProcess()

    let kvo: KVORuntime
    let output: _KVOEventOutput
    /// What kvo-run asked of this run.
    let settings: ProgramChannel.Settings
    let sourceName: String
    let sourcePath: String?
    /// Held by every entry into the runtime (`_KVOLock`).
    let lock = _KVOLock()
    /// `willChangeValue` calls whose `didChangeValue` has not come: each
    /// keeps a level of `lock` until it does (one thread's, as the lock is).
    var manualChangesOpen = 0
    /// Each thread's statement running now, as the rewriter marked it
    /// (`_kvoAt`): line, the statement's column, and the column of its first
    /// KVO call.
    /// The runtime starts on the main thread (`_kvoStart`, first thing).
    let marks = _KVOMarks()
    /// Every thread's marks but the main thread's (never freed: a few bytes
    /// a thread, and pool threads are reused), under `lock`.
    private var otherMarks: [UnsafeMutablePointer<_KVOMark>] = []
    @inline(__always)
    var mark: UnsafeMutablePointer<_KVOMark> {
        marks.current { made in lock.held { otherMarks.append(made) } }
    }
    var line: Int { mark.pointee.line }
    /// Where the next `observe`'s handler starts (`_kvoKeyPath`).
    var pendingHandlerMark: (line: Int, column: Int)?

    /// Runs a change handler with this thread's mark at its first statement,
    /// then puts back the statement that made the change: a handler of one
    /// expression has no mark of its own, and a trap in it belongs to it.
    @inline(__always)
    func running(handlerAt at: (line: Int, column: Int)?, _ body: () -> Void) {
        guard let at else { return body() }
        keepingMark {
            let mark = self.mark
            (mark.pointee.line, mark.pointee.statementColumn, mark.pointee.callColumn) = (at.line, at.column, at.column)
            body()
        }
    }

    /// Runs `body`, which may run the program's own code (an override of
    /// `value(forUndefinedKey:)`, a setter, an observer, each marking its
    /// statements), then puts back this thread's statement: what the caller's
    /// statement does next (a force unwrap of what KVC returned) is its own.
    @inline(__always)
    func keepingMark<T>(_ body: () throws -> T) rethrows -> T {
        let mark = self.mark
        let saved = (mark.pointee.line, mark.pointee.statementColumn, mark.pointee.callColumn)
        defer { (mark.pointee.line, mark.pointee.statementColumn, mark.pointee.callColumn) = saved }
        return try body()
    }
    var statementColumn: Int { mark.pointee.statementColumn }
    var callColumn: Int { mark.pointee.callColumn }
    /// Statements run (each `_kvoAt`) by every thread, for `--stats`.
    var statements: Int {
        lock.held { otherMarks.reduce(marks.main.pointee.statements) { $0 &+ $1.pointee.statements } }
    }
    /// Where the counts go at the end (`ProgramChannel.Summary`).
    let summaryPath: String?
    /// `--keep-going`, which a Swift program cannot honour: said when it ends.
    let keepGoing: Bool
    /// What the REPL asked to know as the new entry ends (nil outside the REPL).
    let replState: _KVOREPLState?

    var classes: [ObjectIdentifier: ClassInfo] = [:]
    /// The Swift object of each engine object: the engine hands back its own
    /// objects (observers, values of to-one keys), Swift code wants its own.
    var hosts = _HostTable()
    /// The last change `_KVOBridge.dictionary` bridged, and its dictionary.
    var lastBridgedChange: (change: Change, dictionary: [NSKeyValueChangeKey: Any])?
    /// `key(_:)`'s last literal and its String.
    var lastKeyLiteral: UnsafeRawPointer?
    var lastKey = ""
    /// The old and new values a stored set delivered by `_kvoDid` keeps
    /// from its `_kvoWill` (`OpenChange.stored`).
    var storedSetOld = Value.null
    var storedSetNew = Value.null
    var contextsByName: [String: (Context, UnsafeMutableRawPointer)] = [:]
    var contextsByPointer: [UnsafeMutableRawPointer: Context] = [:]
    var pointersByContext: [ObjectIdentifier: UnsafeMutableRawPointer] = [:]
    var unnamedContexts = 0
    /// Foundation objects named for printing (`name(of:className:)`).
    private var foundationNames: [ObjectIdentifier: (object: AnyObject, name: String)] = [:]
    private var foundationNameCounts: [String: Int] = [:]
    var keyPathNames: [AnyKeyPath: String] = [:]
    /// The Swift overlay's key-path bridge: while `observe` registers, the
    /// string it registers maps back to its key path, and only then does
    /// `NSKeyValueObservingCustomization` answer for that key.
    var bridgedKeyPaths: [String: AnyKeyPath] = [:]
    /// NSObjects created so far: each one's `hash`.
    var objectCount = 0
    /// `objc_setAssociatedObject`'s values, by object.
    var associationTables: [ObjectIdentifier: _KVOAssociations] = [:]
    /// What Swift classes add to their engine classes' hooks (`_KVOClassTable`).
    var swiftMethods = _KVOSwiftMethods()
    /// Text printed without a newline yet (`_KVOPrinter.write`).
    var partialPrint = ""
    var partialDepth = 0
    /// Values the engine holds as their descriptions (`_KVOBridge.foreign`):
    /// the newest 4,096, and the 4,096 before them.
    var foreignValues: [String: Any] = [:]
    var olderForeignValues: [String: Any] = [:]
    /// Classes and keys whose silent (non-dynamic) assignment was reported.
    var warnedAssignments: Set<String> = []
    /// The name the next `observe` token takes: the top-level binding it is
    /// assigned to, known before `.initial` delivers to it.
    var pendingTokenName: String?
    /// The names the objects of the running top-level binding take when
    /// they are created (`_kvoPendingNames`), with the class each calls.
    var pendingObjectNames: [(name: String, className: String)] = []
    let rootClass: ClassInfo
    /// How each running Swift setter of a dynamic property announced its change.
    var openChanges: [OpenChange] = []
    /// Objects and keys whose Swift setter KVC is running (`setValue`): the
    /// engine notifies around it, the setter must not again.
    private var kvcStores: [(ObjectIdentifier, String)] = []

    func storingForKVC(_ object: KVOObject, _ key: String, _ body: () -> Void) {
        kvcStores.append((ObjectIdentifier(object), key))
        body()
        kvcStores.removeLast()
    }

    func isStoringForKVC(_ object: KVOObject, _ key: String) -> Bool {
        guard let last = kvcStores.last else { return false }
        return last.0 == ObjectIdentifier(object) && last.1 == key
    }

    private init() {
        // getenv, not ProcessInfo's dictionary of the whole environment.
        let settings = ProgramChannel.Settings { getenv($0).map { String(cString: $0) } }
        self.settings = settings
        output = _KVOEventOutput(json: settings.json, color: settings.color, diagnosticColor: settings.diagnosticColor)
        output.pictures = _KVOPictures(settings.picture)
        kvo = KVORuntime(sink: output)
        // The trace draws what caused each notification from the engine's
        // --explain steps (none of them printed), as for a scenario. The
        // REPL's earlier entries run again unseen: their steps would be
        // worked out for nobody, so `_kvoEntryBegins` turns explaining on.
        kvo.explains = (settings.explain && settings.repl == nil) || output.pictures?.trace != nil
        kvo.explainsUnobservedReleases = false
        keepGoing = settings.keepGoing
        summaryPath = settings.summaryFile
        replState = settings.repl?.stateFile.map { _KVOREPLState(path: $0) }
        if let depth = settings.maxDepth { kvo.maxDepth = depth }
        kvo.legacyDealloc = settings.legacyDealloc
        kvo.reportsNotifications = !settings.quiet
        // The engine checks the native stack against its own thread's bounds:
        // deep recursion in a compiled program is the program's own, and
        // Swift traps it (reported by kvo-run as a signal).
        if let trapFile = settings.trapFile { _KVOTrapReport.install(path: trapFile, marks: marks) }
        sourceName = settings.sourceName
        sourcePath = settings.sourcePath
        rootClass = ClassInfo(name: "NSObject", superclass: nil)
        rootClass.runtimeName = "NSObject"
        installHooks(rootClass, for: NSObject.self)
        classes[ObjectIdentifier(NSObject.self)] = rootClass
        // The hooks hold the process strongly: it is the program's one
        // process and lives as long as the program (`shared`), and an
        // `unowned` capture cost an unowned-retain on every notification.
        kvo.runtimeClassName = { [self] object in self.runtimeClassName(object) }
        // Trace lines and the program's own prints share stdio's buffer, in
        // program order; line by line, so that a trap loses none of them.
        setvbuf(stdout, nil, _IOLBF, 0)
        // Standard error fully buffered, flushed by each diagnostic: a Swift
        // trap writes its "Fatal error" line and flushes, then a stack trace
        // of addresses that this buffer holds until the trap discards it, so
        // what kvo-run reports is the same from run to run.
        setvbuf(stderr, nil, _IOFBF, 1 << 16)
        // Last of the streams' set-up: it flushes standard output.
        if settings.json && output.pictures == nil { output.capture = _KVORawOutputCapture() }
        output.depthNow = { [kvo] in kvo.depth }
        if summaryPath != nil || output.pictures != nil || output.capture != nil { _KVORunReport.install() }
    }

    /// The process, its lock taken: every public entry of the runtime starts
    /// `let process = _KVOProcess.entered(); defer { process.lock.leave() }`.
    @inline(__always)
    static func entered() -> _KVOProcess {
        let process = shared
        process.lock.enter()
        return process
    }

    /// `willChangeValue…`: the process, with a level of its lock kept until
    /// the matching `didChangeValue…` (`NSObject._kvoEndChange`).
    static func enteredForChange() -> _KVOProcess {
        let process = entered()
        process.manualChangesOpen += 1
        return process
    }

    // MARK: Classes

    /// The engine's class for a Swift class, declared on first use from the
    /// table the rewriter wrote into it (`_kvoDescribe`).
    func classInfo(for type: NSObject.Type) -> ClassInfo {
        if let known = classes[ObjectIdentifier(type)] { return known }
        let superInfo: ClassInfo
        if let superclass = _getSuperclass(type) as? NSObject.Type {
            superInfo = classInfo(for: superclass)
        } else {
            superInfo = rootClass
        }
        // `_typeName` is what `String(reflecting:)` and `String(describing:)`
        // print for a metatype, without first asking the type for every
        // printing protocol: each first conformance question scans every
        // loaded image's conformance records (1.5 million instructions).
        let qualified = _typeName(type, qualified: true)
        let isRuntimeClass = qualified.hasPrefix("KVOFoundation.")
        let name = _typeName(type, qualified: false)
        let info = ClassInfo(name: name, superclass: superInfo)
        info.runtimeName = isRuntimeClass ? (Self.objectiveCNames[name] ?? name) : qualified
        classes[ObjectIdentifier(type)] = info
        installHooks(info, for: type)
        let table = _KVOClassTable(info: info, type: type)
        type._kvoDescribe(table)
        return info
    }

    /// Foundation's classes that Swift names without their `NS` (SPEC §11.7):
    /// Objective-C, and so `description` and `object_getClass`, name them with it.
    static let objectiveCNames = [
        "Progress": "NSProgress", "UserDefaults": "NSUserDefaults", "Operation": "NSOperation",
        "BlockOperation": "NSBlockOperation", "OperationQueue": "NSOperationQueue",
        // The Swift overlay's `@objc(_NSKeyValueObservation) class NSKeyValueObservation`.
        "NSKeyValueObservation": "_NSKeyValueObservation",
    ]

    /// The NSObject methods a Swift class may override, reached through the
    /// engine's hooks: Swift's dynamic dispatch picks the override.
    private func installHooks(_ info: ClassInfo, for type: NSObject.Type) {
        // A token (`observe`) calls its block; any other observer its
        // `observeValue`. Told apart here, once per class: no class
        // outside this module can inherit from NSKeyValueObservation (it is
        // not `open`), and a failed `as?` cast at each notification cost
        // compiled B2 35 instructions of about 1,600.
        if type == NSKeyValueObservation.self {
            info.ownHooks.observeValue = { [self] observer, _, object, change, _ in
                guard let host = self.host(of: observer) else { return }
                defer { if let capture = self.output.capture { capture.endHandler(depth: self.kvo.depth) } }
                unsafeDowncast(host, to: NSKeyValueObservation.self)._deliver(
                    object: self.host(of: object), change: change)
            }
        } else {
            info.ownHooks.observeValue = { [self] observer, keyPath, object, change, context in
                guard let host = self.host(of: observer) else { return }
                defer { if let capture = self.output.capture { capture.endHandler(depth: self.kvo.depth) } }
                host.observeValue(
                    forKeyPath: keyPath, of: self.host(of: object), change: _KVOBridge.dictionary(change),
                    context: self.pointer(context))
            }
        }
        info.ownHooks.automaticallyNotifiesObservers = { key in type.automaticallyNotifiesObservers(forKey: key) }
        info.ownHooks.keyPathsForValuesAffecting = { key in
            type.keyPathsForValuesAffectingValue(forKey: key).sorted()
        }
        info.ownHooks.setNilValueForKey = { [self] object, key in
            self.host(of: object)?.setNilValueForKey(key)
        }
        info.ownHooks.valueForUndefinedKey = { [self] object, key in
            guard let host = self.host(of: object) else { return .null }
            return _KVOBridge.value(host.value(forUndefinedKey: key))
        }
        info.ownHooks.setValueForUndefinedKey = { [self] object, value, key in
            self.host(of: object)?.setValue(_KVOBridge.swiftValue(value), forUndefinedKey: key)
        }
    }

    func host(of object: KVOObject) -> NSObject? {
        hosts.find(ObjectIdentifier(object))?.object
    }

    /// `object_getClass` (KVOCore's `runtimeClassName`); an exception raised
    /// by a class's hook while asking leaves the class as it is.
    func runtimeClassName(_ object: KVOObject) -> String {
        (try? object.runtimeClassName()) ?? object.cls.runtimeName
    }

    /// The string of a key path, as the overlay's `_kvcKeyPathString`: a
    /// Swift trap where it has none (a property Objective-C cannot see).
    func keyPathString(_ keyPath: AnyKeyPath, root: Any.Type) -> String {
        guard let name = keyPathNames[keyPath] else {
            fail(
                "Fatal error: Could not extract a String from KeyPath \\\(root).<unknown>",
                column: statementColumn)
        }
        return name
    }

    /// A key path that passes through an object of one of Foundation's own
    /// classes whose KVO kvo-run does not model (`op.isFinished` through an
    /// `Operation`) would register and never fire: that is a run-time error
    /// that says so (SPEC §11.7), never a silent observation. The objects
    /// along the path are read as KVO's registration reads them.
    func checkModelled(_ keyPath: String, from object: NSObject) {
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        guard keys.count > 1 else { return }
        var current: NSObject = object
        var walked: [Substring] = []
        for key in keys.dropLast() {
            walked.append(key)
            guard !key.hasPrefix("@"), current._kvoObject.cls.property(named: String(key)) != nil else { return }
            var next = current.value(forKey: String(key))
            // A value the engine has no case for travels as its description.
            if let text = next as? String, let original = _KVOBridge.foreignValue(text) { next = original }
            if let host = next as? NSObject {
                current = host
                continue
            }
            if let foreign = next as? Foundation.NSObject, !(foreign is NSString), !(foreign is NSNumber) {
                fail(
                    "observing '\(keyPath)' goes through '\(walked.joined(separator: "."))', a \(_typeName(type(of: foreign), qualified: false)), one of Foundation's classes whose KVO kvo-run does not model yet (SPEC §11.7): the observation would never fire; observe a property of your own class instead",
                    column: statementColumn)
            }
            return
        }
    }

    /// A key path with each key of a Foundation object spelled as
    /// Objective-C names it (`op.isFinished` through an Operation is
    /// `op.finished`), as a Swift key path names it on a Mac; the objects
    /// along it are read as `checkModelled` reads them.
    func objectiveCPath(_ keyPath: String, from object: NSObject) -> String {
        var keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current: NSObject = object
        for index in keys.indices.dropFirst() {
            guard !keys[index - 1].hasPrefix("@"), let next = current.value(forKey: keys[index - 1]) as? NSObject
            else { break }
            current = next
            if let name = type(of: current)._kvoObjectiveCName(of: keys[index]) { keys[index] = name }
        }
        return keys.joined(separator: ".")
    }

    // MARK: Contexts

    /// `&myContext`: one pointer per name, printed as the name.
    func context(named name: String) -> UnsafeMutableRawPointer {
        if let known = contextsByName[name] { return known.1 }
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        let context = Context(name: name)
        contextsByName[name] = (context, pointer)
        contextsByPointer[pointer] = context
        pointersByContext[ObjectIdentifier(context)] = pointer
        return pointer
    }

    func context(_ pointer: UnsafeMutableRawPointer?) -> Context? {
        guard let pointer else { return nil }
        if let known = contextsByPointer[pointer] { return known }
        // A pointer the rewriter did not name (allocated, or the address of
        // something it does not know): numbered in order of first use, as an
        // object without a binding is, where a Mac prints the address.
        unnamedContexts += 1
        let context = Context(name: "context#\(unnamedContexts)")
        contextsByPointer[pointer] = context
        pointersByContext[ObjectIdentifier(context)] = pointer
        return context
    }

    /// A Foundation object's name where a Mac prints its address (an index
    /// set in a change dictionary): `Class#n`, counted by class in order of
    /// first printing, as §3.1 names an object without a binding. The object
    /// is kept, so that its address (and so its name) is never reused.
    func name(of object: AnyObject, className: String) -> String {
        lock.held {
            if let known = foundationNames[ObjectIdentifier(object)] { return known.name }
            let count = (foundationNameCounts[className] ?? 0) + 1
            foundationNameCounts[className] = count
            let name = "\(className)#\(count)"
            foundationNames[ObjectIdentifier(object)] = (object, name)
            return name
        }
    }

    /// The pointer `observeValue` receives for a context: the one it was registered with.
    func pointer(_ context: Context?) -> UnsafeMutableRawPointer? {
        context.flatMap { pointersByContext[ObjectIdentifier($0)] }
    }

    // MARK: Running engine calls

    /// Runs an engine call. Swift cannot catch an Objective-C exception: an
    /// NSException ends the program, as on a Mac; so does a runtime error.
    func run<T>(_ body: () throws -> T) -> T {
        do {
            return try body()
        } catch ScriptError.exception(let exception) {
            terminate(exception)
        } catch ScriptError.runtime(let failure) {
            fail(
                failure.message + (failure.limit.map { "; " + $0.commandLineAdvice } ?? ""), column: statementColumn)
        } catch {
            fail("\(error)", column: statementColumn)
        }
    }

    /// Raises an exception (its name and reason) at the current depth:
    /// nothing in a Swift program can catch it, so the program ends with it.
    func raise(_ exception: (name: String, reason: String)) -> Never {
        terminate(CocoaException(name: exception.name, reason: exception.reason, depth: kvo.depth))
    }

    func terminate(_ exception: CocoaException) -> Never {
        var located = exception
        located.line = shown(line).line
        located.column = callColumn
        output.uncaught(located)
        note("the uncaught exception '\(exception.name)' was raised here", column: callColumn)
        if keepGoing {
            note(
                "--keep-going cannot go on in a Swift program: Swift cannot catch an Objective-C exception, "
                    + "so it ends the program, as on a Mac", column: callColumn)
        }
        exit(1)
    }

    /// A runtime error, compiler-style, at the statement running now; status 1.
    func fail(_ message: String, column: Int) -> Never {
        let at = shown(line)
        output.error(message, line: at.line, column: column, source: sourceLine(line), file: at.file)
        if keepGoing {
            note("--keep-going cannot go on in a Swift program: a runtime error ends it", column: column)
        }
        exit(1)
    }

    func warn(_ message: String) {
        let at = shown(line)
        output.warning(message, line: at.line, column: statementColumn, source: sourceLine(line), file: at.file)
    }

    private func note(_ message: String, column: Int) {
        let at = shown(line)
        output.note(message, line: at.line, column: column, source: sourceLine(line), file: at.file)
    }

    private var sourceLines: [Substring]?
    func sourceLine(_ number: Int) -> String? {
        if sourceLines == nil, let sourcePath, let text = try? String(contentsOfFile: sourcePath, encoding: .utf8) {
            sourceLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        }
        guard let lines = sourceLines, number >= 1, number <= lines.count else { return nil }
        return String(lines[number - 1])
    }
}

/// The Swift object of each engine object, keyed by the engine object's
/// address. A notifying set asks three or four times (the old and new value
/// through the getter, the observer and the object for the delivery), and
/// `ObjectIdentifier`'s SipHash was most of each lookup: the key here hashes
/// the address by multiplication.
///
/// The objects are held unretained (Objective-C's own table of an object's
/// observation info is an unretained pointer too): an NSObject enters in its
/// `init` and leaves first thing in its `deinit`, before its memory can go,
/// so an entry always names a live object (see `_Host`).
///
/// The last two entries found are kept beside the table: a notifying set
/// asks for the same objects again and again (the observed object for its
/// old and new values, the observer, the observed object for the delivery:
/// B1's compiled set asked four times, about 100 instructions each), and a
/// kept entry is a comparison.
struct _HostTable {
    private var table: [_AddressKey: _Host] = [:]
    private var recent: (id: ObjectIdentifier, host: _Host)?
    private var previous: (id: ObjectIdentifier, host: _Host)?

    subscript(id: ObjectIdentifier) -> _Host? {
        get { table[_AddressKey(id: id)] }
        set {
            if recent?.id == id { recent = nil }
            if previous?.id == id { previous = nil }
            table[_AddressKey(id: id)] = newValue
        }
    }

    /// The entry of `id`, kept as the most recent one found.
    @inline(__always)
    mutating func find(_ id: ObjectIdentifier) -> _Host? {
        if let recent, recent.id == id { return recent.host }
        if let kept = previous, kept.id == id {
            previous = recent
            recent = kept
            return kept.host
        }
        guard let found = table[_AddressKey(id: id)] else { return nil }
        previous = recent
        recent = (id, found)
        return found
    }

    /// Every entry, in no order (a picture's roots are sorted by name).
    var values: Dictionary<_AddressKey, _Host>.Values { table.values }
}
