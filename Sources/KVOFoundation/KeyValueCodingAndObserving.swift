import KVOCore

/// What `observe` is declared on, as in the overlay: `Self` is the
/// receiver's static type.
public protocol _KeyValueCodingAndObserving {}
extension NSObject: _KeyValueCodingAndObserving {}

extension _KeyValueCodingAndObserving {
    /// Swift's block KVO (SPEC §11.2): a hidden observer of the key path's
    /// string, with a nil context; the token ends it when it is invalidated
    /// or freed.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        guard let object = self as? NSObject else {
            process.fail("observe(_:options:changeHandler:) needs an NSObject", column: process.statementColumn)
        }
        let name = process.keyPathNames[keyPath]
        let firstKey = name.map { String($0.split(separator: ".").first ?? "") }
        let visible =
            type(of: object)._kvoEveryKeyIsObservable
            || (firstKey.flatMap { object._kvoObject.cls.property(named: $0) }.map { !$0.kvcHidden } ?? false)
        guard var path = name, visible else {
            process.fail(
                "Fatal error: Could not extract a String from KeyPath \\\(Self.self).\(name ?? "<unknown>")",
                column: process.statementColumn)
        }
        process.checkModelled(path, from: object)
        if path.contains(".") { path = process.objectiveCPath(path, from: object) }
        // The object a change is delivered with is the receiver, a `Self`:
        // checked by identity, it is handed over without `as? Self`, which in
        // this unspecialised code looks up `Optional<Self>`'s metadata on
        // every notification.
        let receiver = ObjectIdentifier(object)
        let handlerAt = process.pendingHandlerMark
        process.pendingHandlerMark = nil
        let handler: (NSObject, NSKeyValueObservedChange<Value>) -> Void
        if Self.self is AnyObject.Type {
            handler = { observed, change in
                guard ObjectIdentifier(observed) == receiver else { return }
                _KVOProcess.shared.running(handlerAt: handlerAt) {
                    changeHandler(_knownIdentityCast(observed, to: Self.self), change)
                }
            }
        } else {
            handler = { observed, change in
                guard let observed = observed as? Self else { return }
                _KVOProcess.shared.running(handlerAt: handlerAt) { changeHandler(observed, change) }
            }
        }
        // The overlay registers inside its key-path bridge: the class hooks
        // asked meanwhile for this very string reach
        // NSKeyValueObservingCustomization (the dependent keys while the
        // observance is made, and whether the key notifies automatically,
        // which KVO asks when it prepares the key's setter).
        let outer = process.bridgedKeyPaths[path]
        process.bridgedKeyPaths[path] = keyPath
        defer { process.bridgedKeyPaths[path] = outer }
        let token = NSKeyValueObservation(object: object, keyPath: path, callback: _KVODelivery.callback(handler))
        process.run {
            try process.kvo.addObserver(
                token._kvoObject, to: .object(object._kvoObject), keyPath: path,
                options: options._engineOptions, context: nil)
            if !path.contains(".") { _ = try object._kvoObject.cls.automaticallyNotifies(forKey: path) }
        }
        return token
    }

    /// The key path's string, read under the runtime's lock.
    private func _kvoKeyPathString<Value>(_ keyPath: KeyPath<Self, Value>) -> String {
        _KVOProcess.shared.lock.held { _KVOProcess.shared.keyPathString(keyPath, root: Self.self) }
    }

    public func willChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
        guard let object = self as? NSObject else { return }
        object.willChangeValue(forKey: _kvoKeyPathString(keyPath))
    }

    public func didChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
        guard let object = self as? NSObject else { return }
        object.didChangeValue(forKey: _kvoKeyPathString(keyPath))
    }

    public func willChange<Value>(
        _ changeKind: NSKeyValueChange, valuesAt indexes: IndexSet, for keyPath: KeyPath<Self, Value>
    ) {
        guard let object = self as? NSObject else { return }
        object.willChange(
            changeKind, valuesAt: indexes, forKey: _kvoKeyPathString(keyPath))
    }

    public func didChange<Value>(
        _ changeKind: NSKeyValueChange, valuesAt indexes: IndexSet, for keyPath: KeyPath<Self, Value>
    ) {
        guard let object = self as? NSObject else { return }
        object.didChange(
            changeKind, valuesAt: indexes, forKey: _kvoKeyPathString(keyPath))
    }
}
