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

    /// The nearest `init`, from this class up.
    var anyInitializer: FunctionBox? {
        var current: ScriptClass? = self
        while let cls = current {
            if let box = cls.initializer { return box }
            current = cls.superclass
        }
        return nil
    }

    init(info: ClassInfo, superclass: ScriptClass?, location: SourceLocation) {
        self.info = info
        self.superclass = superclass
        self.location = location
    }

    func method(_ name: String) -> FunctionBox? {
        var current: ScriptClass? = self
        while let cls = current {
            if let method = cls.methods[name] { return method }
            current = cls.superclass
        }
        return nil
    }

    func staticMethod(_ name: String) -> FunctionBox? {
        var current: ScriptClass? = self
        while let cls = current {
            if let method = cls.staticMethods[name] { return method }
            current = cls.superclass
        }
        return nil
    }

    var allMethodNames: [String] {
        var names: [String] = []
        var current: ScriptClass? = self
        while let cls = current {
            names += cls.methods.keys
            current = cls.superclass
        }
        return names
    }

    /// Initializers of the superclasses first; a loop, as chains of
    /// thousands of classes are allowed.
    var allInitializers: [(PropertyInfo, Eval)] {
        guard superclass != nil else { return instanceInitializers }
        var chain: [ScriptClass] = []
        var current: ScriptClass? = self
        while let cls = current {
            if !cls.instanceInitializers.isEmpty { chain.append(cls) }
            current = cls.superclass
        }
        return chain.reversed().flatMap(\.instanceInitializers)
    }
}
