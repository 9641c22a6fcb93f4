import KVOCore

/// A scenario class: the engine's `ClassInfo` plus its methods.
final class ScriptClass {
    let info: ClassInfo
    let superclass: ScriptClass?
    let location: SourceLocation
    var methods: [String: FunctionBox] = [:]
    var staticMethods: [String: FunctionBox] = [:]
    /// Stored properties whose initial value is not a constant, evaluated per instance.
    var instanceInitializers: [(PropertyInfo, Eval)] = []
    /// Its `init`, when it declares one.
    var initializer: FunctionBox?

    init(info: ClassInfo, superclass: ScriptClass?, location: SourceLocation) {
        self.info = info
        self.superclass = superclass
        self.location = location
    }

    /// This class, then its superclasses, nearest first: every lookup that
    /// inherits walks it. A loop, not recursion, as chains of thousands of
    /// classes are allowed.
    var lineage: UnfoldFirstSequence<ScriptClass> { sequence(first: self, next: \.superclass) }

    /// The nearest `init`, from this class up.
    var anyInitializer: FunctionBox? {
        for cls in lineage { if let box = cls.initializer { return box } }
        return nil
    }

    func method(_ name: String) -> FunctionBox? {
        for cls in lineage { if let method = cls.methods[name] { return method } }
        return nil
    }

    func staticMethod(_ name: String) -> FunctionBox? {
        for cls in lineage { if let method = cls.staticMethods[name] { return method } }
        return nil
    }

    var allMethodNames: [String] { lineage.flatMap(\.methods.keys) }

    /// Initializers of the superclasses first.
    var allInitializers: [(PropertyInfo, Eval)] {
        guard superclass != nil else { return instanceInitializers }
        return lineage.filter { !$0.instanceInitializers.isEmpty }.reversed().flatMap(\.instanceInitializers)
    }
}
