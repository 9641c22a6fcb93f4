import KVOCore

/// What a name means, resolved once while compiling.
enum Binding {
    case global(Int, isLet: Bool, type: ScriptClass?)
    case local(Int, isLet: Bool, type: ScriptClass?)
    case context(Context)
    case function(FunctionBox)
    case classRef(ScriptClass)
}

/// An expression compiled to a closure, with its class when known statically
/// (used to check member names before running).
struct Typed {
    let eval: Eval
    let cls: ScriptClass?
    init(_ eval: @escaping Eval, _ cls: ScriptClass? = nil) {
        self.eval = eval
        self.cls = cls
    }
}

/// A top-level statement ready to run.
struct CompiledStatement {
    let exec: Exec
    let location: SourceLocation
}

/// The checker: resolves names, properties and built-in call labels and reports
/// problems with did-you-mean suggestions, producing closures as it goes (so
/// nothing is looked up by name while running). One instance lives as long as a
/// session, so the REPL keeps its classes and variables between entries.
final class Compiler {
    let machine: Machine
    var diagnostics: [Diagnostic] = []
    var globalNames: [String: Binding] = [:]
    var classes: [String: ScriptClass] = [:]
    var classByInfo: [ObjectIdentifier: ScriptClass] = [:]

    /// Block scopes inside the code being compiled (innermost last).
    var scopes: [[String: Binding]] = []
    /// The function or method being compiled; nil for top-level code.
    var function: FunctionState?
    /// Classes declared by the program being compiled, for suggestions.
    private var batchClassNames: [String] = []
    /// Bodies compiled once every top-level name is known.
    private var pendingBodies: [() -> Void] = []
    /// Computed properties' getter bodies, by property, filled in as they are
    /// compiled: `self`'s own computed properties are read through them.
    var getterBodies: [ObjectIdentifier: GetterBody] = [:]

    struct FunctionState {
        var nextSlot = 0
        let cls: ScriptClass?
        let isStatic: Bool
        let name: String
    }

    init(machine: Machine) {
        self.machine = machine
    }

    func error(_ message: String, at location: SourceLocation, length: Int = 1) {
        diagnostics.append(Diagnostic(.error, message, at: location, length: length))
    }

    func warning(_ message: String, at location: SourceLocation, length: Int = 1) {
        diagnostics.append(Diagnostic(.warning, message, at: location, length: length))
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    // MARK: Programs

    /// Compiles a scenario or a REPL entry. Declarations are hoisted: classes,
    /// contexts and functions may be used before the line that declares them.
    func compileProgram(_ statements: [Stmt]) -> [CompiledStatement] {
        scopes = []
        function = nil
        hoist(statements)
        var compiled: [CompiledStatement] = []
        for statement in statements {
            switch statement {
            case .classDecl, .function, .context: continue
            default:
                compiled.append(CompiledStatement(exec: compileStatement(statement, topLevel: true), location: statement.location))
            }
        }
        let bodies = pendingBodies
        pendingBodies = []
        for body in bodies { body() }
        return compiled
    }

    private func hoist(_ statements: [Stmt]) {
        var classDecls: [ClassDecl] = []
        for statement in statements {
            switch statement {
            case .context(let name, let location):
                guard declareGlobalName(name, at: location) else { continue }
                globalNames[name] = .context(Context(name: name))
            case .function(let decl):
                guard declareGlobalName(decl.name, at: decl.location) else { continue }
                let box = FunctionBox(name: decl.name, parameters: decl.parameters, isStatic: false, location: decl.location)
                globalNames[decl.name] = .function(box)
                pendingBodies.append { [unowned self] in self.compileBody(decl, box: box, cls: nil) }
            case .classDecl(let decl):
                classDecls.append(decl)
            default:
                continue
            }
        }
        declareClasses(classDecls)
    }

    static let reservedNames: Set<String> = ["print", "assert", "type", "object_getClass", "NSObject", "error"]

    private func declareGlobalName(_ name: String, at location: SourceLocation) -> Bool {
        if Self.reservedNames.contains(name) {
            error("'\(name)' is a built-in name; choose another", at: location, length: name.count)
            return false
        }
        switch globalNames[name] {
        case .context?, .function?, .classRef?:
            error("'\(name)' is already declared", at: location, length: name.count)
            return false
        default:
            return true
        }
    }

    // MARK: Classes

    private func declareClasses(_ decls: [ClassDecl]) {
        batchClassNames = decls.map(\.name)
        defer { batchClassNames = [] }
        var remaining = decls
        var declared: [(ClassDecl, ScriptClass)] = []
        var progress = true
        while !remaining.isEmpty && progress {
            progress = false
            var next: [ClassDecl] = []
            for decl in remaining {
                if let (superName, _) = decl.superclass, superName != "NSObject", classes[superName] == nil,
                   remaining.contains(where: { $0.name == superName }) {
                    next.append(decl)
                    continue
                }
                progress = true
                if let cls = declareClass(decl) { declared.append((decl, cls)) }
            }
            remaining = next
        }
        for decl in remaining {
            error("class '\(decl.name)' inherits from itself through its superclasses", at: decl.location)
        }
        for (decl, cls) in declared { resolveTypes(decl, cls) }
        for (decl, cls) in declared { checkAffectedBy(decl, cls) }
    }

    private func declareClass(_ decl: ClassDecl) -> ScriptClass? {
        guard declareGlobalName(decl.name, at: decl.location) else { return nil }
        if case .global? = globalNames[decl.name] {
            error("'\(decl.name)' is already a variable", at: decl.location)
            return nil
        }
        var superclass: ScriptClass?
        if let (superName, location) = decl.superclass, superName != "NSObject" {
            guard let found = classes[superName] else {
                error("unknown superclass '\(superName)'\(Suggestion.didYouMean(superName, in: Array(classes.keys) + batchClassNames))", at: location, length: superName.count)
                return nil
            }
            superclass = found
        }
        let info = ClassInfo(name: decl.name, superclass: superclass?.info)
        let cls = ScriptClass(info: info, superclass: superclass, location: decl.location)
        classes[decl.name] = cls
        classByInfo[ObjectIdentifier(info)] = cls
        machine.classes[ObjectIdentifier(info)] = cls
        globalNames[decl.name] = .classRef(cls)

        var seen: Set<String> = []
        for property in decl.properties {
            guard seen.insert(property.name).inserted else {
                error("invalid redeclaration of property '\(property.name)'", at: property.location)
                continue
            }
            if superclass?.info.property(named: property.name) != nil {
                error("property '\(property.name)' is already declared in a superclass of '\(decl.name)'; overriding properties is not supported", at: property.location)
                continue
            }
            declareProperty(property, in: cls)
        }
        for method in decl.methods {
            let box = FunctionBox(name: method.name, parameters: method.parameters, isStatic: method.isStatic, location: method.location)
            if method.isStatic {
                if cls.staticMethods[method.name] != nil { error("invalid redeclaration of 'static func \(method.name)'", at: method.location) }
                cls.staticMethods[method.name] = box
            } else {
                if cls.methods[method.name] != nil { error("invalid redeclaration of 'func \(method.name)'", at: method.location) }
                if info.property(named: method.name) != nil {
                    error("'\(method.name)' is already a property of '\(decl.name)'", at: method.location)
                }
                cls.methods[method.name] = box
            }
            pendingBodies.append { [unowned self] in self.compileBody(method, box: box, cls: cls) }
        }
        pendingBodies.append { [unowned self] in self.wireHooks(cls) }
        return cls
    }

    private func declareProperty(_ decl: PropertyDecl, in cls: ScriptClass) {
        let type = decl.type?.type ?? inferType(decl.initial) ?? .any
        let storage: PropertyInfo.Storage = decl.computed == nil ? .stored(slot: 0) : .computed
        if decl.computed != nil && decl.isManual && decl.setter == nil {
            // A read-only computed property never notifies automatically anyway.
        }
        let property = PropertyInfo(name: decl.name, type: type, storage: storage, isManual: decl.isManual,
                                    affectedBy: decl.affectedBy.map(\.0))
        cls.info.addProperty(property)
        if let initial = decl.initial {
            if let constant = constantValue(initial) {
                if let accepted = type.accept(constant) {
                    property.defaultValue = accepted
                } else if case .object = type {
                    error("cannot use \(constant.typeName) as the initial value of '\(decl.name)', declared \(type)", at: initial.location)
                } else {
                    error("cannot use \(constant.typeName) as the initial value of '\(decl.name)', declared \(type)", at: initial.location)
                }
            } else {
                pendingBodies.append { [unowned self] in
                    self.function = FunctionState(cls: cls, isStatic: true, name: decl.name)
                    self.scopes = [[:]]
                    let typed = self.compileExpr(initial)
                    cls.instanceInitializers.append((property, typed.eval))
                    self.function = nil
                    self.scopes = []
                }
            }
        }
        if let computed = decl.computed {
            let getterBody = GetterBody(name: decl.name)
            getterBodies[ObjectIdentifier(property)] = getterBody
            pendingBodies.append { [unowned self] in
                var (eval, frameSize) = self.compileInMethod(cls, parameters: []) { self.compileExpr(computed).eval }
                let name = decl.name
                let machine = MachineRef(self.machine)
                guard frameSize == 0 else {
                    property.getter = { object in
                        try machine { try $0.invokeBody(frameSize: frameSize, selfObject: object, argument: nil, name: name, eval) }
                    }
                    return
                }
                if let unboxed = self.compileInMethod(cls, parameters: [], { self.compileUnboxed(computed) }).0 {
                    // Double arithmetic on `self`: unboxed (CompileDouble.swift).
                    getterBody.unboxed = unboxed
                    let boxed = eval
                    let run = unboxed.eval
                    // Run in place by a getter of the same object, which has
                    // already counted this call and checked `self`.
                    eval = { machine in
                        if unboxed.runs(atCallDepth: machine.callDepth, maxDepth: machine.kvo.maxDepth) {
                            do { return .double(try machine.withSelf { try run($0.slots) }) } catch is NotADouble {}
                        }
                        return try boxed(machine)
                    }
                    getterBody.eval = eval
                    property.getter = { object in
                        try machine { machine in
                            // The checks `invokeGetter` makes, once for the whole body.
                            if unboxed.runs(atCallDepth: machine.callDepth + 1, maxDepth: machine.kvo.maxDepth),
                               !object.isReleased {
                                try StackGuard.check("accessor calls")
                                if let value = try? run(object.slots) { return .double(value) }
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
                let (exec, frameSize) = self.compileInMethod(cls, parameters: ["newValue"]) { self.compileBlock(setter) }
                let name = "set \(decl.name)"
                let machine = MachineRef(self.machine)
                property.setter = { object, value in
                    _ = try machine {
                        try $0.invokeBody(frameSize: frameSize, selfObject: object, argument: value, name: name) { try exec($0) ?? .null }
                    }
                }
            }
        }
    }

    private func inferType(_ initial: Expr?) -> ValueType? {
        guard let initial else { return nil }
        switch constantValue(initial) {
        case .int?: return .int
        case .double?: return .double
        case .bool?: return .bool
        case .string?: return .string
        case .array?: return .array(.any)
        default:
            if case .call(.identifier(let name, _, _), _, _) = initial, classes[name] != nil { return .object(name) }
            return nil
        }
    }

    /// A literal initial value, shared by every instance.
    func constantValue(_ expr: Expr) -> Value? {
        switch expr {
        case .literal(let value, _): return value
        case .arrayLiteral(let elements, _):
            var values: [Value] = []
            for element in elements {
                guard let value = constantValue(element) else { return nil }
                values.append(value)
            }
            return .array(values)
        default: return nil
        }
    }

    private func resolveTypes(_ decl: ClassDecl, _ cls: ScriptClass) {
        for property in decl.properties {
            guard let syntax = property.type else { continue }
            var type = syntax.type
            while true {
                switch type {
                case .array(let element), .set(let element): type = element; continue
                case .object(let name) where classes[name] == nil:
                    error("unknown type '\(name)'\(Suggestion.didYouMean(name, in: Array(classes.keys) + ["Int", "Double", "Bool", "String", "Any"]))", at: syntax.location, length: syntax.length)
                default: break
                }
                break
            }
        }
    }

    /// Affecting key paths must name properties; one through a to-many
    /// relationship gets a warning (observing the dependent key will raise).
    private func checkAffectedBy(_ decl: ClassDecl, _ cls: ScriptClass) {
        for property in decl.properties where !property.affectedBy.isEmpty {
            var kept: [String] = []
            for (path, location) in property.affectedBy {
                var current: ScriptClass? = cls
                var valid = true
                let components = KeyPaths.components(path)
                for (index, key) in components.enumerated() {
                    guard let owner = current else { break }
                    guard let found = owner.info.property(named: key) else {
                        if owner.method(key) == nil {
                            let names = owner.info.properties.map(\.name)
                            error("'\(key)' in @affectedBy is not a property of '\(owner.info.name)'\(Suggestion.didYouMean(key, in: names))", at: location, length: path.count)
                            valid = false
                        }
                        break
                    }
                    switch found.type {
                    case .object(let name): current = classes[name]
                    case .array, .set:
                        if index < components.count - 1, !KeyPaths.isLoneOperator(components[(index + 1)...]) {
                            // Kept: registering an observer of the dependent key
                            // raises from the collection, as in Apple's KVO.
                            warning("the affecting key path '\(path)' goes through the to-many relationship '\(key)', which KVO cannot observe through: registering an observer of '\(property.name)' raises NSInvalidArgumentException. Observe each element instead (the guide's Department/totalSalary pattern)", at: location, length: path.count)
                        }
                        current = nil
                    default: current = nil
                    }
                    if !valid { break }
                }
                if valid { kept.append(path) }
            }
            cls.info.property(named: property.name)?.affectedBy = kept
        }
    }

    /// Connects the NSObject hooks a class overrides to its compiled methods.
    private func wireHooks(_ cls: ScriptClass) {
        let machine = MachineRef(self.machine)
        func arity(_ box: FunctionBox, _ count: Int, _ signature: String) -> Bool {
            if box.parameters.count == count { return true }
            error("'\(box.name)' must take \(signature)", at: box.location)
            return false
        }
        if let box = cls.methods["observeValue"], arity(box, 4, "(keyPath, object, change, context)") {
            cls.info.ownHooks.observeValue = { observer, keyPath, object, change, context in
                _ = try machine { try $0.invoke(box, selfObject: observer, arguments: [.string(keyPath), .object(object), .change(change), context.map(Value.context) ?? .null]) }
            }
        }
        if let box = cls.methods["setNilValueForKey"], arity(box, 1, "(key)") {
            cls.info.ownHooks.setNilValueForKey = { object, key in
                _ = try machine { try $0.invoke(box, selfObject: object, arguments: [.string(key)]) }
            }
        }
        if let box = cls.methods["valueForUndefinedKey"], arity(box, 1, "(key)") {
            cls.info.ownHooks.valueForUndefinedKey = { object, key in
                try machine { try $0.invoke(box, selfObject: object, arguments: [.string(key)]) }
            }
        }
        if let box = cls.methods["setValueForUndefinedKey"], arity(box, 2, "(value, key)") {
            cls.info.ownHooks.setValueForUndefinedKey = { object, value, key in
                _ = try machine { try $0.invoke(box, selfObject: object, arguments: [value, .string(key)]) }
            }
        }
        if let box = cls.staticMethods["automaticallyNotifiesObservers"], arity(box, 1, "(key)") {
            cls.info.ownHooks.automaticallyNotifiesObservers = { key in
                try Operators.truth(try machine { try $0.invoke(box, selfObject: nil, arguments: [.string(key)]) })
            }
        }
        if let box = cls.staticMethods["keyPathsForValuesAffecting"], arity(box, 1, "(key)") {
            cls.info.ownHooks.keyPathsForValuesAffecting = { key in
                let result = try machine { try $0.invoke(box, selfObject: nil, arguments: [.string(key)]) }
                let values: [Value]
                switch result {
                case .null: return []
                case .array(let array): values = array
                case .set(let set): values = set.elements
                default:
                    throw ScriptError.runtime("keyPathsForValuesAffecting must return an array of key paths, got \(result.typeName)")
                }
                return try values.map { value in
                        guard case .string(let path) = value else {
                            throw ScriptError.runtime("keyPathsForValuesAffecting must return key-path strings, got \(value.typeName)")
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
    }

    // MARK: Function bodies

    private func compileBody(_ decl: FunctionDecl, box: FunctionBox, cls: ScriptClass?) {
        var names = Set<String>()
        for parameter in decl.parameters where !names.insert(parameter).inserted {
            error("duplicate parameter '\(parameter)' in '\(decl.name)'", at: decl.location)
        }
        let (exec, frameSize) = compileInMethod(cls, parameters: decl.parameters, isStatic: decl.isStatic || cls == nil, name: decl.name) {
            self.compileBlock(decl.body)
        }
        box.body = exec
        box.frameSize = frameSize
    }

    /// Compiles `body` as the inside of a function: parameters take the first slots.
    func compileInMethod<T>(_ cls: ScriptClass?, parameters: [String], isStatic: Bool = false, name: String = "",
                            _ body: () -> T) -> (T, Int) {
        let savedScopes = scopes
        let savedFunction = function
        function = FunctionState(cls: cls, isStatic: isStatic, name: name)
        scopes = [[:]]
        for parameter in parameters { _ = declareLocal(parameter, isLet: false, type: nil) }
        let result = body()
        let frameSize = function?.nextSlot ?? 0
        scopes = savedScopes
        function = savedFunction
        return (result, frameSize)
    }

    /// Declares a variable in the innermost scope: a frame slot inside a
    /// function, a global slot in top-level code.
    func declareLocal(_ name: String, isLet: Bool, type: ScriptClass?) -> Binding {
        let binding: Binding
        if var state = function {
            binding = .local(state.nextSlot, isLet: isLet, type: type)
            state.nextSlot += 1
            function = state
        } else {
            machine.globals.append(.null)
            binding = .global(machine.globals.count - 1, isLet: isLet, type: type)
        }
        if scopes.isEmpty {
            globalNames[name] = binding
        } else {
            scopes[scopes.count - 1][name] = binding
        }
        return binding
    }

    func lookup(_ name: String) -> Binding? {
        for scope in scopes.reversed() {
            if let binding = scope[name] { return binding }
        }
        return globalNames[name]
    }

    /// Names in scope, for did-you-mean.
    func namesInScope() -> [String] {
        var names = Array(globalNames.keys) + scopes.flatMap(\.keys)
        if let cls = function?.cls, function?.isStatic == false {
            names += cls.info.properties.map(\.name) + cls.allMethodNames
        }
        return names + ["print", "assert"]
    }
}

/// The machine as compiled accessors and hooks hold it. The machine owns the
/// classes whose properties and hooks hold these closures, so it outlives every
/// call: a strong capture would be a cycle, and `unowned`, even
/// `unowned(unsafe)`, costs an atomic retain per call (a tenth of a
/// dependency-chain set). So it is kept unretained and borrowed per call.
struct MachineRef {
    private let reference: Unmanaged<Machine>

    init(_ machine: Machine) { reference = .passUnretained(machine) }

    @inline(__always)
    func callAsFunction<T>(_ body: (Machine) throws -> T) rethrows -> T {
        try reference._withUnsafeGuaranteedRef(body)
    }
}

/// A computed property's getter body once compiled (nil before, or when it
/// has locals). A getter that reads a computed property of its own `self`
/// (`color` reading `redComponent`) runs this body directly: same `self`, so
/// no call through KVC and no `self` to swap.
final class GetterBody {
    let name: String
    var eval: Eval?
    /// The unboxed form, for a body of Double arithmetic (CompileDouble.swift).
    var unboxed: UnboxedGetter?

    init(name: String) { self.name = name }
}

extension Machine {
    /// What every accessor call checks before running its body: the depth
    /// limit, a deallocated receiver, the native stack.
    @inline(__always)
    func checkAccessorCall(_ name: String, on object: KVOObject) throws {
        guard callDepth < kvo.maxDepth else {
            throw ScriptError.runtime("accessor calls nested deeper than the maximum depth (\(kvo.maxDepth)) in '\(name)'; raise it with --max-depth")
        }
        if object.isReleased {
            throw ScriptError.runtime("-[\(object.cls.name) \(name)]: message sent to deallocated instance \(object.description)")
        }
        try StackGuard.check("accessor calls")
    }

    /// `self`'s stored property in `slot`, as `get` reads it.
    @inline(__always)
    func ownSlot(_ slot: Int) throws -> Value {
        try withSelf { object in
            try kvo.checkAlive(object)
            return object.slots[slot]
        }
    }

    /// A getter body of `self`'s own computed property, run in place: the
    /// checks and the depth of `get` plus `invokeGetter`, with no `self` to
    /// swap.
    @inline(__always)
    func ownGetter<Result>(_ getter: GetterBody, _ body: (Machine) throws -> Result) throws -> Result {
        try withSelf { object in
            try kvo.checkAlive(object)
            try checkAccessorCall(getter.name, on: object)
            callDepth += 1
            defer { callDepth -= 1 }
            return try body(self)
        }
    }

    /// Runs a compiled accessor body (a getter, or a setter with its `newValue`)
    /// as a call of its own.
    func invokeBody(frameSize: Int, selfObject: KVOObject, argument: Value?, name: String, _ body: (Machine) throws -> Value) throws -> Value {
        try checkAccessorCall(name, on: selfObject)
        let newBase = stack.count
        if let argument { stack.append(argument) }
        return try inFrame(base: newBase, size: frameSize, selfObject: selfObject, body)
    }

    /// Runs a getter body that has no locals: `invokeBody` without the frame.
    func invokeGetter(selfObject newSelf: KVOObject, name: String, _ body: (Machine) throws -> Value) throws -> Value {
        try checkAccessorCall(name, on: newSelf)
        let outer = enterSelf(newSelf)
        callDepth += 1
        defer {
            restoreSelf(outer)
            callDepth -= 1
        }
        return try body(self)
    }
}
