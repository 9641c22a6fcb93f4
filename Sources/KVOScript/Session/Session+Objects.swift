import KVOCore
import KVOOutput

extension Session {
    /// The objects held by top-level variables, by name: where a picture of
    /// the observation graph starts (`kvo-run graph`, `:graph`).
    public var boundObjects: [KVOObject] {
        compiler.environment.globalNames.keys.sorted().compactMap { name in
            guard case .object(let object)? = globalValue(name) else { return nil }
            return object
        }
    }

    /// The objects top-level variables hold, by name: bound directly, or in
    /// arrays and sets (`tokens[0]`), the graph's roots with where they are
    /// held (`ObservationGraph.displayNames`).
    public var heldAtTopLevel: [ObservationGraph.Held] {
        ObservationGraph.heldAtTopLevel(
            compiler.environment.globalNames.keys.sorted().compactMap { name in
                globalValue(name).map { (name, $0) }
            })
    }

    /// The observation graph of what the top-level variables hold now
    /// (`kvo-run graph`, `:graph`): from the objects named after their
    /// variables, then what the variables hold otherwise, by name, as a
    /// compiled program's graph starts (`var token: NSKeyValueObservation?`
    /// given a token later holds `NSKeyValueObservation#2`).
    public var graph: String {
        ObservationGraph.dot(from: boundObjects.filter { !$0.name.contains("#") }, topLevel: heldAtTopLevel)
    }

    /// The names of top-level variables that hold an object (`:info <Tab>`).
    public var objectNames: [String] {
        compiler.environment.globalNames.keys.sorted().filter { name in
            if case .object? = globalValue(name) { return true }
            return false
        }
    }
}
