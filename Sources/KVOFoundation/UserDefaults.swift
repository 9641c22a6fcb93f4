import KVOCore

/// Foundation's `UserDefaults` (`NSUserDefaults`), a kvo-run `NSObject`
/// (SPEC §11.7). Every default is a KVO-compliant key of the defaults object
/// ("To observe changes to individual settings, add a key-value observer to
/// your UserDefaults object, using key names to build the path to the
/// setting you want", Apple's overview): `set(_:forKey:)`, the typed setters,
/// `setValue(_:forKey:)` and `removeObject(forKey:)` notify the observers of
/// that key, whether they registered with `addObserver(_:forKeyPath:)` or
/// through an `@objc dynamic var` a program declares in an extension whose
/// getter reads the default (`observe(\.theme)`), and post
/// `didChangeNotification`. `register(defaults:)` notifies nobody: Apple
/// documents a notification for every setter and for removal, and none for
/// registration, which only supplies values no domain has set (a choice:
/// no recorded run says otherwise).
///
/// A program's defaults live in memory for its run: nothing it sets reaches
/// the user's real defaults, and nothing it reads comes from them, so a
/// golden's output never depends on the machine.
open class UserDefaults: NSObject {
    /// The values the program set, then the registered ones.
    private var values: [String: Any] = [:]
    private var registered: [String: Any] = [:]
    /// The suite's name, for the description.
    private let suiteName: String?

    private static let shared = UserDefaults()

    /// The program's defaults (in memory: see the type's comment).
    open class var standard: UserDefaults { shared }

    public override init() {
        suiteName = nil
        super.init()
    }

    /// A defaults object of its own for `suitename` (in memory too); nil for
    /// the app's own bundle identifier, as on a Mac.
    public init?(suiteName suitename: String?) {
        if let suitename, suitename == Bundle.main.bundleIdentifier { return nil }
        suiteName = suitename
        super.init()
    }

    /// Does nothing here: there is nothing to write to disk.
    open class func resetStandardUserDefaults() {}

    // MARK: Reading

    open func object(forKey defaultName: String) -> Any? {
        _KVOProcess.shared.lock.held { values[defaultName] ?? registered[defaultName] }
    }

    open func string(forKey defaultName: String) -> String? {
        switch object(forKey: defaultName) {
        case let string as String: return string
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    open func array(forKey defaultName: String) -> [Any]? { object(forKey: defaultName) as? [Any] }

    open func dictionary(forKey defaultName: String) -> [String: Any]? {
        object(forKey: defaultName) as? [String: Any]
    }

    open func data(forKey defaultName: String) -> Data? { object(forKey: defaultName) as? Data }

    open func stringArray(forKey defaultName: String) -> [String]? { object(forKey: defaultName) as? [String] }

    open func integer(forKey defaultName: String) -> Int {
        switch object(forKey: defaultName) {
        case let value as Int: return value
        case let value as Double: return Int(exactly: value.rounded(.towardZero)) ?? 0
        case let value as Bool: return value ? 1 : 0
        case let value as String:
            return Int(value) ?? Double(value).flatMap { Int(exactly: $0.rounded(.towardZero)) } ?? 0
        default: return 0
        }
    }

    open func float(forKey defaultName: String) -> Float { Float(double(forKey: defaultName)) }

    open func double(forKey defaultName: String) -> Double {
        switch object(forKey: defaultName) {
        case let value as Double: return value
        case let value as Float: return Double(value)
        case let value as Int: return Double(value)
        case let value as Bool: return value ? 1 : 0
        case let value as String: return Double(value) ?? 0
        default: return 0
        }
    }

    open func bool(forKey defaultName: String) -> Bool {
        switch object(forKey: defaultName) {
        case let value as Bool: return value
        case let value as Int: return value != 0
        case let value as Double: return value != 0
        case let value as String: return ["yes", "true", "1"].contains(value.lowercased())
        default: return false
        }
    }

    open func url(forKey defaultName: String) -> URL? {
        switch object(forKey: defaultName) {
        case let url as URL: return url
        case let string as String: return URL(fileURLWithPath: (string as NSString).expandingTildeInPath)
        default: return nil
        }
    }

    /// Every default, set and registered.
    open func dictionaryRepresentation() -> [String: Any] {
        _KVOProcess.shared.lock.held { registered.merging(values) { _, set in set } }
    }

    // MARK: Writing: each change notifies the observers of its key

    open func set(_ value: Any?, forKey defaultName: String) {
        guard let value else {
            removeObject(forKey: defaultName)
            return
        }
        willChangeValue(forKey: defaultName)
        values[defaultName] = value
        didChangeValue(forKey: defaultName)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: self)
    }

    open func set(_ value: Int, forKey defaultName: String) { set(value as Any, forKey: defaultName) }
    open func set(_ value: Float, forKey defaultName: String) { set(value as Any, forKey: defaultName) }
    open func set(_ value: Double, forKey defaultName: String) { set(value as Any, forKey: defaultName) }
    open func set(_ value: Bool, forKey defaultName: String) { set(value as Any, forKey: defaultName) }
    open func set(_ url: URL?, forKey defaultName: String) { set(url as Any?, forKey: defaultName) }

    open func removeObject(forKey defaultName: String) {
        willChangeValue(forKey: defaultName)
        values[defaultName] = nil
        didChangeValue(forKey: defaultName)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: self)
    }

    /// Removes every value the program set in `domainName` (this object's
    /// suite, or the standard defaults for the app's own name): each key's
    /// observers are told, in key order.
    open func removePersistentDomain(forName domainName: String) {
        guard domainName == suiteName || (suiteName == nil && domainName == Bundle.main.bundleIdentifier) else {
            return
        }
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        for key in values.keys.sorted() { removeObject(forKey: key) }
    }

    /// Values for keys no one has set; notifies nobody (see the type's comment).
    open func register(defaults registrationDictionary: [String: Any]) {
        _KVOProcess.shared.lock.held { registered.merge(registrationDictionary) { _, new in new } }
    }

    /// Always true: there is nothing to write.
    @discardableResult
    open func synchronize() -> Bool { true }

    public static let didChangeNotification = Notification.Name("NSUserDefaultsDidChangeNotification")

    // MARK: Key-value coding: a default's name is its key

    /// `value(forKey:)` of a default, and the old and new values of a change.
    open override func value(forUndefinedKey key: String) -> Any? {
        object(forKey: key)
    }

    /// `setValue(_:forKey:)` sets the default (and notifies, as `set` does).
    open override func setValue(_ value: Any?, forUndefinedKey key: String) {
        set(value, forKey: key)
    }

    /// `observe(\.theme)` through an extension's `@objc dynamic var theme`
    /// observes the default `theme`.
    override class var _kvoEveryKeyIsObservable: Bool { true }

    open override class func _kvoDescribe(_ table: _KVOClassTable) {
        table.storedProperties { (_: UserDefaults) -> [(String, Any)] in [] }
    }
}
