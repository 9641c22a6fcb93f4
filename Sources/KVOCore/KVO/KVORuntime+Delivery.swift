extension KVORuntime {
    // MARK: Delivery (§6.8)

    /// Prints the notification, then runs the observer's `observeValue` one level deeper.
    func deliver(_ observance: Observance, _ change: Change) throws {
        let observer = observance.observer
        if observer.isReleased {
            throw ScriptError.runtime(
                "*** -[\(observer.cls.name) observeValueForKeyPath:ofObject:change:context:]: message sent to deallocated instance \(observer.description)"
            )
        }
        notificationCount += 1
        if reportsNotifications {
            sink.emit(
                .notify(
                    object: observance.observed, keyPath: observance.keyPath, observer: observer,
                    change: change, context: observance.context, depth: depth))
        }
        guard let handler = observer.cls.observeValueHook else { return }
        do {
            // `nested`'s steps written out: a closure capturing `change`
            // copied it (and its values) three times per notification.
            try enterNested()
            defer { depth -= 1 }
            try handler(observer, observance.keyPath, observance.observed, change, observance.context)
        } catch ScriptError.runtime(var failure) where failure.limit == .depth && failure.notificationTrail.count < 64 {
            // Unwinding a runaway loop: note which notifications it went through.
            failure.notificationTrail.append("\(observance.observed.name).\(observance.keyPath)")
            throw ScriptError.runtime(failure)
        }
    }

    /// Runs `body` one handler level deeper, within `maxDepth`.
    public func nested<T>(_ body: () throws -> T) throws -> T {
        try enterNested()
        defer { depth -= 1 }
        return try body()
    }

    /// One handler level deeper, within `maxDepth`; the caller steps back
    /// (`depth -= 1`) when the handler returns.
    @inline(__always)
    func enterNested() throws {
        guard depth < maxDepth else {
            throw ScriptError.runtime(
                RuntimeFailure("notifications nested deeper than the maximum depth (\(maxDepth))", limit: .depth))
        }
        try stackGuard.check("notifications")
        depth += 1
        handlerRuns &+= 1
    }

    /// NSObject's `observeValue(forKeyPath:of:change:context:)`: a subclass failed
    /// to consume the notification.
    public func unhandledNotification(
        observer: KVOObject, keyPath: String, object: KVOObject,
        change: Change, context: Context?
    ) -> ScriptError {
        exception(
            Exceptions.unhandled(observer: observer, keyPath: keyPath, object: object, change: change, context: context)
        )
    }
}
