import KVOCore

/// The second half of compiling: turns a program the checker accepted (a
/// `CheckedProgram`) into closures, with every name already resolved (so nothing is looked up by
/// name while running). It reports nothing: what could be wrong was found by
/// the checker, and the few paths that cannot happen after a successful check
/// compile to an internal error. One instance lives as long as a session.
final class Compiler {
    let machine: Machine
    /// The checked program's top-level names and classes.
    private(set) var environment = Environment()
    /// What each name of the program being compiled refers to.
    private var resolutions = Resolutions()
    /// Top-level expression statements return their value, to be echoed (the REPL).
    var echoesExpressions = false

    /// The function or method being compiled; nil for top-level code.
    var function: FunctionState?
    /// Blocks open around the code being compiled in the current function
    /// (or at top level).
    var blockDepth = 0
    /// Bodies compiled once every top-level statement is.
    private var pendingBodies: [() -> Void] = []
    /// Computed properties' getter bodies, by property, filled in as they are
    /// compiled: `self`'s own computed properties are read through them.
    var getterBodies: [ObjectIdentifier: GetterBody] = [:]

    struct FunctionState {
        let cls: ScriptClass?
        let isStatic: Bool
        let name: String
    }

    init(machine: Machine) {
        self.machine = machine
    }

    /// What a name at `location` refers to, as the checker resolved it.
    func binding(at location: SourceLocation) -> Binding? {
        resolutions.bindings[location]
    }

    /// Code for a path the checker rules out; reaching it is a bug.
    static func unreachable(_ what: String) -> Eval {
        { _ in throw ScriptError.runtime(.internalError(what: what)) }
    }

    // MARK: Programs

    /// Compiles a program `checker` accepted, and adopts what it declared.
    func compile(_ statements: [Stmt], checked program: CheckedProgram) -> [CompiledStatement] {
        environment = program.environment
        resolutions = program.resolutions
        function = nil
        blockDepth = 0
        for (decl, box) in program.functions {
            pendingBodies.append { [unowned self] in self.compileBody(decl, box: box, cls: nil) }
        }
        for (decl, cls) in program.classes { defineClass(decl, cls) }
        var compiled: [CompiledStatement] = []
        for statement in statements {
            switch statement {
            case .classDecl, .function, .context, .importModule: continue
            case .expression(let expr) where echoesExpressions:
                compiled.append(
                    CompiledStatement(
                        exec: compileEchoed(expr, at: statement.location),
                        location: statement.location, echoes: true, echoesNil: !expr.isCall))
            case .binding(_, let name, _, _, let location):
                var statement = CompiledStatement(
                    exec: compileStatement(statement, topLevel: true),
                    location: location)
                if let binding = binding(at: location) { statement.declares = (name, binding) }
                compiled.append(statement)
            default:
                let exec = compileStatement(statement, topLevel: true)
                compiled.append(CompiledStatement(exec: exec, location: statement.location))
            }
        }
        let bodies = pendingBodies
        pendingBodies = []
        for body in bodies { body() }
        while machine.globals.count < environment.globalCount { machine.globals.append(.null) }
        resolutions = Resolutions()
        return compiled
    }

    /// Takes back a top-level binding: `name` means `binding` again (nil: nothing).
    func restoreGlobal(_ name: String, to binding: Binding?) {
        environment.globalNames[name] = binding
    }

    // MARK: Classes

    /// Gives a declared class its code: accessors, initial values, methods
    /// and the NSObject hooks it overrides.
    private func defineClass(_ decl: ClassDecl, _ cls: ScriptClass) {
        machine.classes[ObjectIdentifier(cls.info)] = cls
        for property in decl.properties {
            if let info = cls.info.property(named: property.name) {
                defineProperty(property, info, in: cls)
                pendingBodies.append { [unowned self] in self.definePropertyObservers(property, info, in: cls) }
            }
        }
        pendingBodies.append { [unowned self] in self.compileInitializerBody(decl, cls) }
        for method in decl.methods {
            guard let box = method.isStatic ? cls.staticMethods[method.name] : cls.methods[method.name] else {
                continue
            }
            pendingBodies.append { [unowned self] in self.compileBody(method, box: box, cls: cls) }
        }
        pendingBodies.append { [unowned self] in self.wireHooks(cls) }
    }

    private func defineProperty(_ decl: PropertyDecl, _ property: PropertyInfo, in cls: ScriptClass) {
        if let initial = decl.initial, initial.constantValue == nil {
            pendingBodies.append { [unowned self] in
                let (eval, _) = self.compileInMethod(cls, isStatic: true, name: decl.name, key: initial.location) {
                    self.compileExpr(initial).eval
                }
                cls.instanceInitializers.append((property, eval))
            }
        }
        if let computed = decl.computed {
            let getterBody = GetterBody(name: decl.name, computed: computed, in: cls)
            getterBodies[ObjectIdentifier(property)] = getterBody
            pendingBodies.append { [unowned self] in
                var (eval, frameSize) = self.compileInMethod(cls, key: computed.location) {
                    self.compileExpr(computed).eval
                }
                let name = decl.name
                let machine = MachineRef(self.machine)
                // Once the getter below is set: a pure body is marked, and
                // its value kept when it builds text (PureGetter.swift).
                defer {
                    if frameSize == 0, let getter = property.getter, let purity = self.purity(of: getterBody) {
                        property.getterIsPure = true
                        if purity.buildsText {
                            property.getter = Self.remembering(getter, property, name: name, machine: machine)
                        }
                    }
                }
                guard frameSize == 0 else {
                    property.getter = { object in
                        try machine {
                            try $0.invokeBody(frameSize: frameSize, selfObject: object, argument: nil, name: name, eval)
                        }
                    }
                    return
                }
                if let unboxed = self.compileInMethod(cls, key: computed.location, { self.compileUnboxed(computed) }).0
                {
                    // Double arithmetic on `self`: unboxed (CompileDouble.swift).
                    getterBody.unboxed = unboxed
                    let boxed = eval
                    let run = unboxed.eval
                    // Run in place by a getter of the same object, which has
                    // already counted this call and checked `self`.
                    eval = { machine in
                        if unboxed.runs(atCallDepth: machine.callDepth, maxDepth: machine.kvo.maxDepth) {
                            do { return .double(try machine.withSelf { try run($0) }) } catch is NotADouble {}
                        }
                        return try boxed(machine)
                    }
                    getterBody.eval = eval
                    property.getter = { object in
                        try machine { machine in
                            // The checks `invokeGetter` makes, once for the whole body.
                            if unboxed.runs(atCallDepth: machine.callDepth + 1, maxDepth: machine.kvo.maxDepth),
                                !object.isReleased
                            {
                                try machine.kvo.stackGuard.check("accessor calls")
                                if let value = try? run(object) { return .double(value) }
                            }
                            return try machine.invokeGetter(selfObject: object, name: name, boxed)
                        }
                    }
                    return
                }
                getterBody.eval = eval
                // `{ lComponent * 2 }`: no locals, so no frame to push or pop.
                property.getter = { object in
                    try machine { try $0.invokeGetter(selfObject: object, name: name, eval) }
                }
            }
        }
        if let setter = decl.setter {
            pendingBodies.append { [unowned self] in
                let (exec, frameSize) = self.compileInMethod(cls, key: decl.location) { self.compileBlock(setter) }
                let name = "set \(decl.name)"
                let machine = MachineRef(self.machine)
                property.setter = { object, value in
                    _ = try machine {
                        try $0.invokeBody(frameSize: frameSize, selfObject: object, argument: value, name: name) {
                            try exec($0) ?? .null
                        }
                    }
                }
            }
        }
    }

    /// Connects the NSObject hooks a class overrides to its compiled methods.
    private func wireHooks(_ cls: ScriptClass) {
        let machine = MachineRef(self.machine)
        // The checker made sure each takes what NSObject passes (Library's
        // `Hook`); one that does not is not connected.
        func hook(_ name: String) -> FunctionBox? {
            guard let declared = Hook.all.first(where: { $0.name == name }),
                let box = declared.isStatic ? cls.staticMethods[name] : cls.methods[name],
                box.parameters.count == declared.parameters
            else { return nil }
            return box
        }
        if let box = hook("observeValue") {
            cls.info.ownHooks.observeValue = { observer, keyPath, object, change, context in
                _ = try machine {
                    try $0.invoke(
                        box, selfObject: observer,
                        arguments: [
                            .string(keyPath), .object(object), .change(change), context.map(Value.context) ?? .null,
                        ])
                }
            }
        }
        if let box = hook("setNilValueForKey") {
            cls.info.ownHooks.setNilValueForKey = { object, key in
                _ = try machine { try $0.invoke(box, selfObject: object, arguments: [.string(key)]) }
            }
        }
        if let box = hook("valueForUndefinedKey") {
            cls.info.ownHooks.valueForUndefinedKey = { object, key in
                try machine { try $0.invoke(box, selfObject: object, arguments: [.string(key)]) }
            }
        }
        if let box = hook("setValueForUndefinedKey") {
            cls.info.ownHooks.setValueForUndefinedKey = { object, value, key in
                _ = try machine { try $0.invoke(box, selfObject: object, arguments: [value, .string(key)]) }
            }
        }
        if let box = hook("automaticallyNotifiesObservers") {
            cls.info.ownHooks.automaticallyNotifiesObservers = { key in
                try Operators.truth(try machine { try $0.invoke(box, selfObject: nil, arguments: [.string(key)]) })
            }
        }
        if let box = hook("keyPathsForValuesAffecting") {
            cls.info.ownHooks.keyPathsForValuesAffecting = { key in
                let result = try machine { try $0.invoke(box, selfObject: nil, arguments: [.string(key)]) }
                let values: [Value]
                switch result {
                case .null: return []
                case .array(let array): values = array.values
                case .set(let set): values = set.elements
                default:
                    throw ScriptError.runtime(.affectingNotArray(type: result.typeName))
                }
                return try values.map { value in
                    guard case .string(let path) = value else {
                        throw ScriptError.runtime(.affectingNotStrings(type: value.typeName))
                    }
                    return path
                }
            }
        }
        for (name, box) in cls.methods where box.parameters.isEmpty {
            cls.info.ownHooks.getterMethods[name] = { object in
                try machine { try $0.invoke(box, selfObject: object, arguments: []) }
            }
        }
        // One-argument methods: KVC's `set<Key>:` and `objectIn<Key>AtIndex:`.
        for (name, box) in cls.methods where box.parameters.count == 1 {
            cls.info.ownHooks.oneArgumentMethods[name] = { object, argument in
                try machine { try $0.invoke(box, selfObject: object, arguments: [argument]) }
            }
        }
    }

    // MARK: Function bodies

    private func compileBody(_ decl: FunctionDecl, box: FunctionBox, cls: ScriptClass?) {
        let (exec, frameSize) = compileInMethod(
            cls, isStatic: decl.isStatic || cls == nil, name: decl.name, key: decl.location
        ) {
            self.compileBlock(decl.body)
        }
        box.body = exec
        box.frameSize = frameSize
    }

    /// Compiles `body` as the inside of a function whose frame the checker
    /// laid out under `key` (parameters first).
    func compileInMethod<T>(
        _ cls: ScriptClass?, isStatic: Bool = false, name: String = "", key: SourceLocation,
        _ body: () -> T
    ) -> (T, Int) {
        let savedFunction = function
        let savedDepth = blockDepth
        function = FunctionState(cls: cls, isStatic: isStatic, name: name)
        blockDepth = 0
        let result = body()
        function = savedFunction
        blockDepth = savedDepth
        return (result, resolutions.frameSizes[key] ?? 0)
    }

    /// `compileInMethod` for a body compiled to an expression's closure (a
    /// getter, an initial value). The generic form hands the closure back
    /// at the most general abstraction level, and every call of the result
    /// then went through two reabstraction thunks; wrapped in a struct it
    /// keeps its own (see `ExecBox`).
    func compileInMethod(
        _ cls: ScriptClass?, isStatic: Bool = false, name: String = "", key: SourceLocation,
        _ body: () -> Eval
    ) -> (Eval, Int) {
        let (box, frameSize) = compileInMethod(cls, isStatic: isStatic, name: name, key: key) {
            EvalBox(eval: body())
        }
        return (box.eval, frameSize)
    }

    /// `compileInMethod` for a body compiled to a block (a method, an
    /// initializer, a setter, an observer): as above.
    func compileInMethod(
        _ cls: ScriptClass?, isStatic: Bool = false, name: String = "", key: SourceLocation,
        _ body: () -> Exec
    ) -> (Exec, Int) {
        let (box, frameSize) = compileInMethod(cls, isStatic: isStatic, name: name, key: key) {
            ExecBox(exec: body())
        }
        return (box.exec, frameSize)
    }
}

extension Expr {
    /// A call, whose nil value means "returned nothing".
    var isCall: Bool {
        if case .call = self { return true }
        return false
    }
}
