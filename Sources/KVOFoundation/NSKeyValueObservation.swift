import KVOCore

/// The token `observe` returns; the observation lasts as long as it does.
public class NSKeyValueObservation: NSObject {
    weak var object: NSObject?
    let keyPath: String
    var callback: ((NSObject?, Change) -> Void)?

    init(object: NSObject, keyPath: String, callback: @escaping (NSObject?, Change) -> Void) {
        self.object = object
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
        guard callback != nil else { return }
        callback = nil
        guard let object, let observed = object._kvoObject, !observed.isReleased, let token = _kvoObject else {
            return
        }
        let process = _KVOProcess.shared
        process.kvo.explainObservationEnded(observed, keyPath: keyPath, released: released)
        try? process.kvo.removeObserver(token, from: .object(observed), keyPath: keyPath, context: .exactly(nil))
        self.object = nil
    }

    deinit { end(released: true) }
}
