import KVOCore

/// The token `observe` returns; the observation lasts as long as it does.
public class NSKeyValueObservation: NSObject {
    /// The observed object's engine object, not the NSObject: a weak
    /// reference would give the observed object a side table for life (its
    /// every retain and release on the slow path, see `_Host`), and the
    /// engine object says, once the NSObject is gone, that it was released.
    var observed: KVOObject?
    let keyPath: String
    var callback: ((NSObject?, Change) -> Void)?

    init(object: NSObject, keyPath: String, callback: @escaping (NSObject?, Change) -> Void) {
        self.observed = object._kvoObject
        self.keyPath = keyPath
        self.callback = callback
        super.init()
    }

    func _deliver(object: NSObject?, change: Change) {
        callback?(object, change)
    }

    /// Ends the observation; harmless twice.
    public func invalidate() {
        end(released: false)
    }

    /// The observer goes away silently: `invalidate()`, or the token's
    /// release (`released`), which `--explain` tells apart.
    private func end(released: Bool) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        guard callback != nil else { return }
        callback = nil
        guard let observed, !observed.isReleased, let token = _kvoObject else { return }
        process.kvo.endObservation(of: token, on: observed, keyPath: keyPath, released: released)
        self.observed = nil
    }

    deinit { end(released: true) }
}
