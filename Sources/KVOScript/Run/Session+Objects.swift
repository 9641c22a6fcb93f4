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
}
