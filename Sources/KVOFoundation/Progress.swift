import KVOCore

/// Foundation's `Progress` (`NSProgress`), a kvo-run `NSObject` (SPEC §11.7):
/// every property is observable ("Each of the properties of a progress
/// object, including totalUnitCount, completedUnitCount, and
/// fractionCompleted, support key-value observing", Apple's overview), and
/// a tree of progress objects rolls up into `fractionCompleted`.
///
/// The arithmetic is swift-corelibs-foundation's (Progress.swift,
/// ProgressFraction.swift), which mirrors Darwin's `_NSProgressFraction`:
/// fractions are kept exact (`_KVOProgressFraction`), so a parent of two
/// children prints `0.55`, not the `0.5500000000000000444` of summing
/// Doubles. A parent's fraction is its own `completedUnitCount` plus, for
/// each unfinished child, the child's fraction of its pending units, over
/// `totalUnitCount`; when a child finishes, its pending units move into the
/// parent's `completedUnitCount`.
///
/// Notifications: `completedUnitCount`, `totalUnitCount`, `isCancelled`,
/// `isPaused`, `isCancellable`, `isPausable`, `userInfo` and
/// `localizedDescription`/`localizedAdditionalDescription` (when set) notify
/// their observers as any `@objc dynamic` property does; `fractionCompleted`,
/// `isFinished`, `isIndeterminate` and the computed descriptions are
/// dependent keys of the unit counts (`keyPathsForValuesAffectingValue`), and
/// a child's change posts `fractionCompleted` on each ancestor whose fraction
/// it moves (a child added at 0 % moves none). Apple does not document the order of these notifications;
/// this is the order in which the values change. Handlers run on the thread
/// that made the change, as Apple documents.
open class Progress: NSObject {
    // MARK: State

    private var selfFraction: _KVOProgressFraction
    /// What unfinished children contribute, as a fraction of this progress.
    private var childFraction = _KVOProgressFraction(completed: 0, total: 1)
    private var children: [ObjectIdentifier: (child: Progress, portion: Int64)] = [:]
    private weak var parent: Progress?
    /// The parent's units this progress stands for.
    private var portionOfParent: Int64 = 0
    /// Set by `becomeCurrent(withPendingUnitCount:)`: the units the next
    /// implicit child takes, until one has.
    private var pendingUnitCountForChild: Int64?

    // MARK: Making progress objects

    public init(parent: Progress?, userInfo: [ProgressUserInfoKey: Any]? = nil) {
        selfFraction = _KVOProgressFraction(completed: 0, total: 0)
        self.userInfo = userInfo ?? [:]
        super.init()
        if let parent {
            parent.attachImplicitChild(self)
        } else if let current = Progress.current() {
            current.attachImplicitChild(self)
        }
    }

    public convenience override init() {
        self.init(parent: nil, userInfo: nil)
    }

    /// A progress object of `totalUnitCount` units, the implicit child of the
    /// current progress object if there is one.
    public convenience init(totalUnitCount unitCount: Int64) {
        self.init(parent: nil, userInfo: nil)
        selfFraction = _KVOProgressFraction(completed: 0, total: unitCount)
    }

    /// A progress object that is not the implicit child of any other.
    public static func discreteProgress(totalUnitCount unitCount: Int64) -> Progress {
        let progress = Progress(detached: ())
        progress.selfFraction = _KVOProgressFraction(completed: 0, total: unitCount)
        return progress
    }

    /// The explicit child of `parent`, standing for `portionOfParentTotalUnitCount` of its units.
    public convenience init(totalUnitCount unitCount: Int64, parent: Progress, pendingUnitCount portion: Int64) {
        self.init(detached: ())
        selfFraction = _KVOProgressFraction(completed: 0, total: unitCount)
        parent.addChild(self, withPendingUnitCount: portion)
    }

    private init(detached: Void) {
        selfFraction = _KVOProgressFraction(completed: 0, total: 0)
        userInfo = [:]
        super.init()
    }

    // MARK: Observable properties

    open var totalUnitCount: Int64 {
        get { _KVOProcess.shared.lock.held { selfFraction.total } }
        set {
            let process = _KVOProcess.entered()
            defer { process.lock.leave() }
            willChangeValue(forKey: "totalUnitCount")
            let before = overall
            let oldTotal = selfFraction.total
            selfFraction.total = newValue
            // Children's shares were fractions of the old total.
            if oldTotal > 0 {
                childFraction = childFraction * _KVOProgressFraction(completed: oldTotal, total: newValue)
            }
            didChangeValue(forKey: "totalUnitCount")
            parent?.childChanged(self, from: before, to: overall)
        }
    }

    open var completedUnitCount: Int64 {
        get { _KVOProcess.shared.lock.held { selfFraction.completed } }
        set {
            let process = _KVOProcess.entered()
            defer { process.lock.leave() }
            willChangeValue(forKey: "completedUnitCount")
            let before = overall
            selfFraction.completed = newValue
            didChangeValue(forKey: "completedUnitCount")
            parent?.childChanged(self, from: before, to: overall)
        }
    }

    /// The fraction of the whole tree done (0.0 when indeterminate).
    open var fractionCompleted: Double {
        _KVOProcess.shared.lock.held {
            selfFraction.total > 0 ? overall.fractionCompleted : selfFraction.fractionCompleted
        }
    }

    /// Done: `completedUnitCount` equals or exceeds `totalUnitCount`.
    open var isFinished: Bool { _KVOProcess.shared.lock.held { selfFraction.isFinished } }

    /// Either count negative, or both zero.
    open var isIndeterminate: Bool { _KVOProcess.shared.lock.held { selfFraction.isIndeterminate } }

    open var isCancellable = true {
        willSet { willChangeValue(forKey: "isCancellable") }
        didSet { didChangeValue(forKey: "isCancellable") }
    }

    open var isPausable = false {
        willSet { willChangeValue(forKey: "isPausable") }
        didSet { didChangeValue(forKey: "isPausable") }
    }

    /// Also when a containing progress object was cancelled.
    open private(set) var isCancelled = false {
        willSet { willChangeValue(forKey: "isCancelled") }
        didSet { didChangeValue(forKey: "isCancelled") }
    }

    /// Also when a containing progress object was paused.
    open private(set) var isPaused = false {
        willSet { willChangeValue(forKey: "isPaused") }
        didSet { didChangeValue(forKey: "isPaused") }
    }

    open private(set) var userInfo: [ProgressUserInfoKey: Any] {
        willSet { willChangeValue(forKey: "userInfo") }
        didSet { didChangeValue(forKey: "userInfo") }
    }

    open func setUserInfoObject(_ object: Any?, forKey key: ProgressUserInfoKey) {
        userInfo[key] = object
    }

    open var kind: ProgressKind?

    private var customDescription: String?
    private var customAdditionalDescription: String?

    /// "50% completed", unless a description was set.
    open var localizedDescription: String! {
        get {
            if let customDescription { return customDescription }
            return "\(Int((fractionCompleted * 100).rounded(.down)))% completed"
        }
        set {
            willChangeValue(forKey: "localizedDescription")
            customDescription = newValue
            didChangeValue(forKey: "localizedDescription")
        }
    }

    /// "5 of 10", unless a description was set.
    open var localizedAdditionalDescription: String! {
        get {
            if let customAdditionalDescription { return customAdditionalDescription }
            return isIndeterminate ? "" : "\(completedUnitCount) of \(totalUnitCount)"
        }
        set {
            willChangeValue(forKey: "localizedAdditionalDescription")
            customAdditionalDescription = newValue
            didChangeValue(forKey: "localizedAdditionalDescription")
        }
    }

    open var cancellationHandler: (() -> Void)?
    open var pausingHandler: (() -> Void)?
    open var resumingHandler: (() -> Void)?

    // MARK: Cancelling and pausing (the children too)

    open func cancel() {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        if !isCancelled { isCancelled = true }
        cancellationHandler?()
        for child in childrenInOrder { child.cancel() }
    }

    open func pause() {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        if !isPaused { isPaused = true }
        pausingHandler?()
        for child in childrenInOrder { child.pause() }
    }

    open func resume() {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        if isPaused { isPaused = false }
        resumingHandler?()
        for child in childrenInOrder { child.resume() }
    }

    // MARK: The tree

    /// The children in the order they were made: the order they are told.
    private var childrenInOrder: [Progress] {
        children.values.map(\.child).sorted { $0._kvoSerial < $1._kvoSerial }
    }

    /// Makes `child` a child standing for `inUnitCount` of this progress's
    /// units: its progress counts toward this one's from now on.
    open func addChild(_ child: Progress, withPendingUnitCount inUnitCount: Int64) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        guard child.parent == nil else {
            process.fail(
                "Fatal error: The Progress was already the child of another Progress",
                column: process.statementColumn)
        }
        children[ObjectIdentifier(child)] = (child, inUnitCount)
        child.parent = self
        child.portionOfParent = inUnitCount
        if isCancelled { child.cancel() }
        if isPaused { child.pause() }
        childChanged(child, from: _KVOProgressFraction(completed: 0, total: 0), to: child.overall)
    }

    /// The progress object current on this thread (`becomeCurrent`), if any.
    open class func current() -> Progress? {
        _KVOProgressCurrent.stack.last
    }

    /// Makes this progress current on this thread: the next progress object
    /// created without a parent becomes its child for `unitCount` units.
    open func becomeCurrent(withPendingUnitCount unitCount: Int64) {
        pendingUnitCountForChild = unitCount
        _KVOProgressCurrent.stack.append(self)
    }

    /// Ends `becomeCurrent`: if no child was made, the pending units are done.
    open func resignCurrent() {
        guard _KVOProgressCurrent.stack.last === self else {
            _KVOProcess.shared.fail(
                "Fatal error: This Progress was not the current progress on this thread.",
                column: _KVOProcess.shared.statementColumn)
        }
        _KVOProgressCurrent.stack.removeLast()
        if let pending = pendingUnitCountForChild {
            pendingUnitCountForChild = nil
            completedUnitCount += pending
        }
    }

    private func attachImplicitChild(_ child: Progress) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        guard let pending = pendingUnitCountForChild else { return }
        pendingUnitCountForChild = nil
        addChild(child, withPendingUnitCount: pending)
    }

    /// This progress's own fraction with its unfinished children's.
    private var overall: _KVOProgressFraction { selfFraction + childFraction }

    /// A child's fraction went from `previous` to `next`: this fraction
    /// moves by the child's share, a finished child's units become this
    /// progress's completed units, and the change goes on up the tree.
    private func childChanged(_ child: Progress, from previous: _KVOProgressFraction, to next: _KVOProgressFraction) {
        guard let entry = children[ObjectIdentifier(child)] else { return }
        let before = overall
        let share = _KVOProgressFraction(completed: entry.portion, total: selfFraction.total)
        if next.isFinished {
            children[ObjectIdentifier(child)] = nil
            if !previous.isIndeterminate { childFraction = childFraction - previous * share }
            // The finished child's units are this progress's completed units:
            // `completedUnitCount` notifies (and its parent is told there).
            if entry.portion != 0 {
                completedUnitCount += entry.portion
                return
            }
        } else {
            var moved = childFraction
            if !previous.isIndeterminate { moved = moved - previous * share }
            if !next.isIndeterminate { moved = moved + next * share }
            // Told only when the fraction moves: a child added at 0 % changes nothing.
            let fraction = fractionCompleted
            let changes = selfFraction.total > 0 && (selfFraction + moved).fractionCompleted != fraction
            if changes { willChangeValue(forKey: "fractionCompleted") }
            childFraction = moved
            if changes { didChangeValue(forKey: "fractionCompleted") }
        }
        parent?.childChanged(self, from: before, to: overall)
    }

    // MARK: KVO and KVC

    /// What a change of the unit counts changes too.
    open override class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        switch key {
        case "fractionCompleted", "isFinished", "isIndeterminate", "localizedAdditionalDescription":
            return ["completedUnitCount", "totalUnitCount"]
        case "localizedDescription":
            return ["completedUnitCount", "totalUnitCount", "fractionCompleted"]
        default:
            return super.keyPathsForValuesAffectingValue(forKey: key)
        }
    }

    /// Progress sends its notifications itself (`willChangeValue` in each
    /// setter): no automatic change wraps KVC's sets a second time.
    open override class func automaticallyNotifiesObservers(forKey key: String) -> Bool {
        switch key {
        case "totalUnitCount", "completedUnitCount", "isCancellable", "isPausable", "isCancelled", "isPaused",
            "userInfo", "localizedDescription", "localizedAdditionalDescription":
            return false
        default:
            return super.automaticallyNotifiesObservers(forKey: key)
        }
    }

    open override class func _kvoDescribe(_ table: _KVOClassTable) {
        table.property(
            "totalUnitCount", objc: true, dynamic: false, get: { (o: Progress) in o.totalUnitCount },
            set: { (o: Progress, v) in o.totalUnitCount = v }, keyPath: \Progress.totalUnitCount)
        table.property(
            "completedUnitCount", objc: true, dynamic: false, get: { (o: Progress) in o.completedUnitCount },
            set: { (o: Progress, v) in o.completedUnitCount = v }, keyPath: \Progress.completedUnitCount)
        table.property(
            "fractionCompleted", objc: true, dynamic: false, get: { (o: Progress) in o.fractionCompleted }, set: nil,
            keyPath: \Progress.fractionCompleted)
        table.property(
            "isFinished", objc: true, dynamic: false, get: { (o: Progress) in o.isFinished }, set: nil,
            keyPath: \Progress.isFinished)
        table.property(
            "isIndeterminate", objc: true, dynamic: false, get: { (o: Progress) in o.isIndeterminate }, set: nil,
            keyPath: \Progress.isIndeterminate)
        table.property(
            "isCancelled", objc: true, dynamic: false, get: { (o: Progress) in o.isCancelled }, set: nil,
            keyPath: \Progress.isCancelled)
        table.property(
            "isPaused", objc: true, dynamic: false, get: { (o: Progress) in o.isPaused }, set: nil,
            keyPath: \Progress.isPaused)
        table.property(
            "isCancellable", objc: true, dynamic: false, get: { (o: Progress) in o.isCancellable },
            set: { (o: Progress, v) in o.isCancellable = v }, keyPath: \Progress.isCancellable)
        table.property(
            "isPausable", objc: true, dynamic: false, get: { (o: Progress) in o.isPausable },
            set: { (o: Progress, v) in o.isPausable = v }, keyPath: \Progress.isPausable)
        table.property(
            "localizedDescription", objc: true, dynamic: false,
            get: { (o: Progress) in o.localizedDescription as String? },
            set: { (o: Progress, v: String?) in o.localizedDescription = v })
        table.property(
            "localizedAdditionalDescription", objc: true, dynamic: false,
            get: { (o: Progress) in o.localizedAdditionalDescription as String? },
            set: { (o: Progress, v: String?) in o.localizedAdditionalDescription = v })
        table.storedProperties { (_: Progress) -> [(String, Any)] in [] }
    }

    /// Apple's: `<NSProgress: 0x…> : Parent: 0x0 (portion: 0) / Fraction
    /// completed: 0.5000 / Completed: 5 of 10`, with names for addresses
    /// (SPEC §3.1).
    open override var description: String {
        let parentName = parent.map { $0._kvoObject.name } ?? "0x0"
        let fraction = (fractionCompleted * 10000).rounded() / 10000
        var digits = String(fraction)
        if let dot = digits.firstIndex(of: ".") {
            let decimals = digits[digits.index(after: dot)...].count
            if decimals < 4 { digits += String(repeating: "0", count: 4 - decimals) }
        } else {
            digits += ".0000"
        }
        return
            "<\(_kvoObject.cls.runtimeName): \(_kvoObject.name)> : Parent: \(parentName) (portion: \(portionOfParent)) / Fraction completed: \(digits) / Completed: \(completedUnitCount) of \(totalUnitCount)"
    }
}

/// Something that reports its progress, as Foundation's protocol of that
/// name, with kvo-run's `Progress`.
public protocol ProgressReporting: NSObjectProtocol {
    var progress: Progress { get }
}

/// The progress objects made current on this thread, innermost last.
enum _KVOProgressCurrent {
    private static let key = "_kvoCurrentProgress"

    final class Stack {
        var progresses: [Progress] = []
    }

    static var stack: [Progress] {
        get { (Thread.current.threadDictionary[key] as? Stack)?.progresses ?? [] }
        set {
            let box = (Thread.current.threadDictionary[key] as? Stack) ?? Stack()
            box.progresses = newValue
            Thread.current.threadDictionary[key] = box
        }
    }
}
