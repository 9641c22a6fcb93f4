import KVOCore

extension Session {
    /// The objects held by top-level variables, by name: where a picture of
    /// the observation graph starts (`kvo-run graph`, `:graph`).
    public var boundObjects: [KVOObject] {
        compiler.environment.globalNames.keys.sorted().compactMap { name in
            guard case .object(let object)? = globalValue(name) else { return nil }
            return object
        }
    }

    /// The names of top-level variables that hold an object (`:info <Tab>`).
    public var objectNames: [String] {
        compiler.environment.globalNames.keys.sorted().filter { name in
            if case .object? = globalValue(name) { return true }
            return false
        }
    }
}
