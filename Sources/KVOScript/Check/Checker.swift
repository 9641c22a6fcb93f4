import KVOCore

/// The first half of compiling: declares a program's classes, functions and
/// contexts, resolves every name against the scopes in force, and reports
/// every problem, on the whole program, before any code is generated. So no
/// check depends on the order in which bodies are compiled, and a program
/// with errors changes nothing: the environment it declares into is a copy.
///
/// Classes are declared here as engine classes (`ClassInfo`) with their
/// properties and methods, whose code the `Compiler` fills in later; nothing
/// else refers to them until the session adopts the environment.
final class Checker {
    var environment: Environment
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var resolutions = Resolutions()
    /// Classes and functions this program declares, for the compiler.
    private(set) var declaredClasses: [(ClassDecl, ScriptClass)] = []
    private(set) var declaredFunctions: [(FunctionDecl, FunctionBox)] = []

    /// Block scopes inside the code being checked (innermost last).
    private var scopes: [[String: Binding]] = []
    /// The function, method or accessor being checked; nil at top level.
    private(set) var function: FunctionState?
    /// Classes declared by this program, for suggestions before they exist.
    private var batchClassNames: [String] = []
    /// Bodies checked once every top-level statement is: they may use
    /// globals declared after them.
    var pendingBodies: [() -> Void] = []
    /// How many `do` blocks around the code being checked catch each
    /// exception name ("" for a catch-all): an unknown key whose exception
    /// is caught is expected there, not a typo.
    var catching: [String: Int] = [:]
    /// The REPL: a class, function or context an earlier entry declared may
    /// be declared again, and the new one replaces it for what follows (as in
    /// Swift's and Python's REPLs; objects already made keep their class).
    /// Twice in one entry, or in a file, it stays an error.
    var replacesEarlierDeclarations = false
    /// Global names this program declares, so that a second declaration of
    /// one is an error even where an earlier entry's may be replaced.
    private var declaredHere: [String: SourceLocation] = [:]

    struct FunctionState {
        var nextSlot = 0
        let cls: ScriptClass?
        let isStatic: Bool
        let name: String
        /// Inside an accessor or initial value (no `return`).
        let isAccessor: Bool
    }

    init(environment: Environment) {
        self.environment = environment
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    func error(_ message: String, at location: SourceLocation, length: Int = 1) {
        diagnostics.append(Diagnostic(.error, message, at: location, length: length))
    }

    func warning(_ message: String, at location: SourceLocation, length: Int = 1) {
        diagnostics.append(Diagnostic(.warning, message, at: location, length: length))
    }

    // MARK: Programs

    /// Checks a scenario or a REPL entry. Declarations are hoisted: classes,
    /// contexts and functions may be used before the line that declares them.
    func check(_ statements: [Stmt]) {
        checkImports(statements)
        hoist(statements)
        for statement in statements {
            switch statement {
            case .classDecl, .function, .context, .importModule: continue
            default: checkStatement(statement, topLevel: true)
            }
        }
        while !pendingBodies.isEmpty {
            let bodies = pendingBodies
            pendingBodies = []
            for body in bodies { body() }
        }
    }

    private func hoist(_ statements: [Stmt]) {
        var classDecls: [ClassDecl] = []
        for statement in statements {
            switch statement {
            case .context(let name, let location):
                guard declareGlobalName(name, at: location) else { continue }
                environment.globalNames[name] = .context(Context(name: name))
            case .function(let decl):
                guard declareGlobalName(decl.name, at: decl.location) else { continue }
                let box = FunctionBox(
                    name: decl.name, parameters: decl.parameters, isStatic: false, location: decl.location)
                environment.globalNames[decl.name] = .function(box)
                declaredFunctions.append((decl, box))
                pendingBodies.append { [unowned self] in self.checkBody(decl, cls: nil) }
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
        if let earlier = declaredHere[name] {
            error(
                "'\(name)' is already declared at line \(earlier.line); give one of them another name",
                at: location, length: name.count)
            return false
        }
        switch environment.globalNames[name] {
        case .context?, .function?, .classRef?:
            if replacesEarlierDeclarations { break }
            error(
                "'\(name)' is already declared; give one of them another name", at: location, length: name.count)
            return false
        default:
            break
        }
        declaredHere[name] = location
        return true
    }
}

// MARK: Classes

extension Checker {
    /// Declares each class after its superclass, which may come later in the
    /// file: a class's subclasses in this batch are declared right after it,
    /// breadth first. Linear in the number of classes and without recursion —
    /// an inheritance chain may be 20,000 classes long, in any order.
    private func declareClasses(_ decls: [ClassDecl]) {
        batchClassNames = decls.map(\.name)
        defer { batchClassNames = [] }
        var firstIndex: [String: Int] = [:]
        for (index, decl) in decls.enumerated() where firstIndex[decl.name] == nil { firstIndex[decl.name] = index }
        var subclasses = Array(repeating: [Int](), count: decls.count)
        var roots: [Int] = []
        for (index, decl) in decls.enumerated() {
            if let (superName, _) = decl.superclass, superName != "NSObject", environment.classes[superName] == nil,
                let parent = firstIndex[superName]
            {
                subclasses[parent].append(index)
            } else {
                roots.append(index)
            }
        }
        var reached = Array(repeating: false, count: decls.count)
        var declared: [(ClassDecl, ScriptClass)] = []
        for root in roots {
            // (index, whether its superclass was declared)
            var queue = [(root, true)]
            var head = 0
            reached[root] = true
            while head < queue.count {
                let (index, superclassDeclared) = queue[head]
                head += 1
                // A class whose superclass could not be declared (reported
                // there) is not declared either, without a second error.
                var cls: ScriptClass?
                if superclassDeclared { cls = declareClass(decls[index]) }
                if let cls { declared.append((decls[index], cls)) }
                for child in subclasses[index] {
                    reached[child] = true
                    queue.append((child, cls != nil))
                }
            }
        }
        for (index, decl) in decls.enumerated() where !reached[index] {
            error("class '\(decl.name)' inherits from itself through its superclasses", at: decl.location)
        }
        for (decl, cls) in declared { resolveTypes(decl, cls) }
        for (decl, cls) in declared { checkAffectedBy(decl, cls) }
        for (decl, cls) in declared { checkHookSignatures(cls, decl) }
        declaredClasses += declared
    }

    private func declareClass(_ decl: ClassDecl) -> ScriptClass? {
        guard declareGlobalName(decl.name, at: decl.location) else { return nil }
        if case .global? = environment.globalNames[decl.name] {
            error("'\(decl.name)' is already a variable", at: decl.location)
            return nil
        }
        var superclass: ScriptClass?
        if let (superName, location) = decl.superclass, superName != "NSObject" {
            guard let found = environment.classes[superName] else {
                let names = Array(environment.classes.keys) + batchClassNames
                error(
                    "unknown superclass '\(superName)'\(Suggestion.didYouMean(superName, in: names))", at: location,
                    length: superName.count)
                return nil
            }
            superclass = found
        }
        let info = ClassInfo(name: decl.name, superclass: superclass?.info)
        let cls = ScriptClass(info: info, superclass: superclass, location: decl.location)
        declareInitializer(decl, cls)
        environment.classes[decl.name] = cls
        environment.globalNames[decl.name] = .classRef(cls)

        var seen: Set<String> = []
        for property in decl.properties {
            guard seen.insert(property.name).inserted else {
                error("invalid redeclaration of property '\(property.name)'", at: property.location)
                continue
            }
            if superclass?.info.property(named: property.name) != nil {
                error(
                    "property '\(property.name)' is already declared in a superclass of '\(decl.name)'; overriding properties is not supported",
                    at: property.location)
                continue
            }
            declareProperty(property, in: cls)
        }
        for method in decl.methods {
            let box = FunctionBox(
                name: method.name, parameters: method.parameters, isStatic: method.isStatic, location: method.location)
            if method.isStatic {
                if cls.staticMethods[method.name] != nil {
                    error("invalid redeclaration of 'static func \(method.name)'", at: method.location)
                }
                cls.staticMethods[method.name] = box
            } else {
                if cls.methods[method.name] != nil {
                    error("invalid redeclaration of 'func \(method.name)'", at: method.location)
                }
                if info.property(named: method.name) != nil {
                    error("'\(method.name)' is already a property of '\(decl.name)'", at: method.location)
                }
                cls.methods[method.name] = box
            }
            pendingBodies.append { [unowned self] in self.checkBody(method, cls: cls) }
        }
        return cls
    }

    /// Declares a property with everything its checks need (type, storage,
    /// whether it has a setter); its accessors' code comes later.
    private func declareProperty(_ decl: PropertyDecl, in cls: ScriptClass) {
        let type = decl.type?.type ?? inferType(decl.initial) ?? .any
        let storage: PropertyInfo.Storage = decl.computed == nil ? .stored(slot: 0) : .computed
        let property = PropertyInfo(
            name: decl.name, type: type, storage: storage, isManual: decl.isManual,
            affectedBy: decl.affectedBy.map(\.0))
        property.hasSetter = decl.setter != nil
        cls.info.addProperty(property)
        declarePropertyObservers(decl, in: cls)
        if let initial = decl.initial {
            if let constant = Compiler.constantValue(initial) {
                if let accepted = type.accept(constant) {
                    property.defaultValue = accepted
                } else {
                    error(
                        "cannot use \(constant.typeName) as the initial value of '\(decl.name)', declared \(type)",
                        at: initial.location)
                }
            } else {
                pendingBodies.append { [unowned self] in
                    self.inBody(
                        cls, parameters: [], isStatic: true, name: decl.name, isAccessor: true, key: initial.location
                    ) {
                        _ = self.checkExpr(initial)
                    }
                }
            }
        }
        if let computed = decl.computed {
            pendingBodies.append { [unowned self] in
                self.inBody(cls, parameters: [], name: decl.name, isAccessor: true, key: computed.location) {
                    _ = self.checkExpr(computed)
                }
            }
        }
        if let setter = decl.setter {
            pendingBodies.append { [unowned self] in
                self.inBody(
                    cls, parameters: ["newValue"], name: "set \(decl.name)", isAccessor: true, key: decl.location
                ) {
                    self.checkBlock(setter)
                }
            }
        }
    }

    private func inferType(_ initial: Expr?) -> ValueType? {
        guard let initial else { return nil }
        switch Compiler.constantValue(initial) {
        case .int?: return .int
        case .double?: return .double
        case .bool?: return .bool
        case .string?: return .string
        case .array?: return .array(.any)
        default:
            if case .call(.identifier(let name, _, _), _, _) = initial, environment.classes[name] != nil {
                return .object(name)
            }
            return nil
        }
    }

    private func resolveTypes(_ decl: ClassDecl, _ cls: ScriptClass) {
        let builtinTypes = ["Int", "Double", "Bool", "String", "Any"]
        for property in decl.properties {
            guard let syntax = property.type else { continue }
            var type = syntax.type
            while true {
                switch type {
                case .array(let element), .set(let element):
                    type = element
                    continue
                case .object(let name) where environment.classes[name] == nil:
                    let names = Array(environment.classes.keys) + builtinTypes
                    error(
                        "unknown type '\(name)'\(Suggestion.didYouMean(name, in: names))", at: syntax.location,
                        length: syntax.length)
                default:
                    break
                }
                break
            }
        }
    }

    /// Affecting key paths must name properties; one through a to-many
    /// relationship is kept (observing the dependent key raises from the
    /// collection, as in Apple's KVO) with a warning.
    private func checkAffectedBy(_ decl: ClassDecl, _ cls: ScriptClass) {
        for property in decl.properties where !property.affectedBy.isEmpty {
            var kept: [String] = []
            for (path, location) in property.affectedBy {
                var current: ScriptClass? = cls
                let components = KeyPaths.components(path)
                for (index, key) in components.enumerated() {
                    guard let owner = current else { break }
                    guard let found = owner.info.property(named: key) else {
                        // Apple registers an affecting key no class has
                        // without a word: a warning, and the path is kept.
                        checkKeys([key], from: owner, use: .observed, at: location, length: path.count)
                        break
                    }
                    switch found.type {
                    case .object(let name):
                        current = environment.classes[name]
                    case .array, .set:
                        if index < components.count - 1, !KeyPaths.isLoneOperator(components[(index + 1)...]) {
                            warning(
                                "the affecting key path '\(path)' goes through the to-many relationship '\(key)', which KVO cannot observe through: registering an observer of '\(property.name)' raises NSInvalidArgumentException. Observe each element instead (the guide's Department/totalSalary pattern)",
                                at: location, length: path.count)
                        }
                        current = nil
                    default:
                        current = nil
                    }
                }
                kept.append(path)
            }
            cls.info.property(named: property.name)?.affectedBy = kept
        }
    }

    /// Whether KVC's accessor search finds `key` on instances of `cls`
    /// other than as a property of that name: a method `get<Key>`, `<key>`,
    /// `is<Key>` or `_<key>`, the pair `countOf<Key>` and
    /// `objectIn<Key>AtIndex`, or an instance variable (SPEC §5).
    static func kvcFinds(_ key: String, in cls: ScriptClass) -> Bool {
        let capital = KeyPaths.capitalized(key)
        for name in ["get" + capital, key, "is" + capital, "_" + key] {
            if cls.info.property(named: name) != nil || cls.method(name) != nil { return true }
        }
        if cls.info.property(named: "countOf" + capital) != nil || cls.method("countOf" + capital) != nil,
            cls.method("objectIn" + capital + "AtIndex") != nil
        {
            return true
        }
        return ["_" + key, "_is" + capital, key, "is" + capital].contains { cls.info.ivar(named: $0) != nil }
    }

    /// The NSObject methods a class overrides must take what NSObject passes.
    private func checkHookSignatures(_ cls: ScriptClass, _ decl: ClassDecl) {
        for hook in Hook.all {
            let box = hook.isStatic ? cls.staticMethods[hook.name] : cls.methods[hook.name]
            if let box, box.parameters.count != hook.parameters {
                error("'\(box.name)' must take \(hook.signature)", at: box.location)
            }
        }
    }
}

/// The NSObject methods a scenario class can override, with what they take.
struct Hook {
    let name: String
    let isStatic: Bool
    let parameters: Int
    let signature: String

    static let all = [
        Hook(name: "observeValue", isStatic: false, parameters: 4, signature: "(keyPath, object, change, context)"),
        Hook(name: "setNilValueForKey", isStatic: false, parameters: 1, signature: "(key)"),
        Hook(name: "valueForUndefinedKey", isStatic: false, parameters: 1, signature: "(key)"),
        Hook(name: "setValueForUndefinedKey", isStatic: false, parameters: 2, signature: "(value, key)"),
        Hook(name: "automaticallyNotifiesObservers", isStatic: true, parameters: 1, signature: "(key)"),
        Hook(name: "keyPathsForValuesAffecting", isStatic: true, parameters: 1, signature: "(key)"),
    ]
}

// MARK: Bodies and scopes

extension Checker {
    private func checkBody(_ decl: FunctionDecl, cls: ScriptClass?) {
        var names = Set<String>()
        for parameter in decl.parameters where !names.insert(parameter).inserted {
            error("duplicate parameter '\(parameter)' in '\(decl.name)'", at: decl.location)
        }
        inBody(
            cls, parameters: decl.parameters, isStatic: decl.isStatic || cls == nil, name: decl.name,
            isAccessor: false, key: decl.location
        ) {
            self.checkBlock(decl.body)
        }
    }

    /// Checks `body` as the inside of a function: parameters take the first
    /// slots; the frame size is recorded under `key`.
    func inBody(
        _ cls: ScriptClass?, parameters: [String], isStatic: Bool = false, name: String,
        isAccessor: Bool, key: SourceLocation, _ body: () -> Void
    ) {
        let savedScopes = scopes
        let savedFunction = function
        function = FunctionState(cls: cls, isStatic: isStatic, name: name, isAccessor: isAccessor)
        scopes = [[:]]
        for parameter in parameters { _ = declareLocal(parameter, isLet: false, type: nil) }
        body()
        resolutions.frameSizes[key] = function?.nextSlot ?? 0
        scopes = savedScopes
        function = savedFunction
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
            binding = .global(environment.globalCount, isLet: isLet, type: type)
            environment.globalCount += 1
        }
        if scopes.isEmpty {
            environment.globalNames[name] = binding
        } else {
            scopes[scopes.count - 1][name] = binding
        }
        return binding
    }

    private func lookup(_ name: String) -> Binding? {
        for scope in scopes.reversed() {
            if let binding = scope[name] { return binding }
        }
        // Inside an instance member a property of self (or its ivar `_name`)
        // hides a global of the same name, as in Swift: the tutorial's
        // `first + " " + last` read a global `first` an earlier REPL entry made.
        if let cls = selfClass {
            let key = name.hasPrefix("_") && name.count > 1 ? String(name.dropFirst()) : name
            if cls.info.property(named: key) != nil { return nil }
        }
        return environment.globalNames[name]
    }

    /// Looks `name` up and records what the use at `location` refers to.
    private func resolve(_ name: String, at location: SourceLocation) -> Binding? {
        guard let binding = lookup(name) else { return nil }
        resolutions.bindings[location] = binding
        return binding
    }

    /// Names in scope, for did-you-mean.
    private func namesInScope() -> [String] {
        var names = Array(environment.globalNames.keys) + scopes.flatMap(\.keys)
        if let cls = function?.cls, function?.isStatic == false {
            names += cls.info.properties.map(\.name) + cls.allMethodNames
        }
        return names + ["print", "assert"]
    }

    /// The class of `self` in an instance method or accessor.
    var selfClass: ScriptClass? {
        guard let state = function, !state.isStatic else { return nil }
        return state.cls
    }

    private func propertyClass(_ property: PropertyInfo) -> ScriptClass? {
        if case .object(let name) = property.type { return environment.classes[name] }
        return nil
    }
}

// MARK: Statements

extension Checker {
    func checkBlock(_ statements: [Stmt]) {
        scopes.append([:])
        defer { scopes.removeLast() }
        for statement in statements { checkStatement(statement, topLevel: false) }
    }

    private func checkStatement(_ statement: Stmt, topLevel: Bool) {
        switch statement {
        case .expression(let expr):
            _ = checkExpr(expr)
            warnIfObservationUnused(expr)

        case .assign(.identifier("_", _, _), "=", let value, _):
            _ = checkExpr(value)

        case .binding(let isLet, let name, _, let value, let location):
            let type = value.flatMap { checkExpr($0) }
            resolutions.bindings[location] = declareLocal(name, isLet: isLet, type: type)

        case .assign(let target, let op, let value, let location):
            checkLValue(target)
            _ = checkExpr(value)
            if op != "=", !Operators.isBinary(String(op.dropLast())) {
                error("unknown operator '\(op)'", at: location)
            }

        case .ifElse(let branches, let otherwise, _):
            for branch in branches {
                let type = checkExpr(branch.condition)
                if let name = branch.binding {
                    scopes.append([:])
                    resolutions.bindings[branch.location] = declareLocal(name, isLet: true, type: type)
                    checkBlock(branch.body)
                    scopes.removeLast()
                } else {
                    checkBlock(branch.body)
                }
            }
            if let otherwise { checkBlock(otherwise) }

        case .forIn(let name, let sequence, let body, let location):
            if case .binary(let op, let lower, let upper, _) = sequence, op == "..<" || op == "..." {
                _ = checkExpr(lower)
                _ = checkExpr(upper)
            } else {
                _ = checkExpr(sequence)
            }
            scopes.append([:])
            resolutions.bindings[location] = declareLocal(name, isLet: true, type: nil)
            checkBlock(body)
            scopes.removeLast()

        case .whileLoop(let condition, let body, _):
            _ = checkExpr(condition)
            checkBlock(body)

        case .doCatch(let body, let caught, let handler, let location):
            if let (name, nameLocation) = caught, !Compiler.exceptionNames.contains(name) {
                error(
                    "unknown exception name '\(name)'\(Suggestion.didYouMean(name, in: Compiler.exceptionNames))",
                    at: nameLocation, length: name.count)
            }
            let caughtName = caught?.0 ?? ""
            catching[caughtName, default: 0] += 1
            checkBlock(body)
            catching[caughtName, default: 1] -= 1
            scopes.append([:])
            resolutions.bindings[location] = declareLocal("error", isLet: true, type: nil)
            checkBlock(handler)
            scopes.removeLast()

        case .returnValue(let value, let location):
            if function == nil {
                error("'return' outside of a function", at: location, length: 6)
            }
            if let value { _ = checkExpr(value) }

        case .release(let target, _):
            _ = checkExpr(target)

        case .function(let decl):
            if !topLevel { error("functions can only be declared at top level", at: decl.location) }
        case .classDecl(let decl):
            if !topLevel { error("classes can only be declared at top level", at: decl.location) }
        case .context(_, let location):
            if !topLevel { error("contexts can only be declared at top level", at: location) }
        case .importModule(_, let location):
            if !topLevel { error("'import' can only be written at top level", at: location, length: 6) }
        case .guardLet(let name, let value, let otherwise, let location):
            let type = checkExpr(value)
            checkBlock(otherwise)
            if let name { resolutions.bindings[location] = declareLocal(name, isLet: true, type: type) }
        case .throwError(let value, _):
            _ = checkExpr(value)
        }
    }

    /// An assignment target: a variable, a property, an instance variable or
    /// an element of an array held in one of those.
    private func checkLValue(_ target: Expr) {
        switch target {
        case .forceUnwrap(let inner, _):
            checkLValue(inner)
        case .identifier(let name, let location, let length):
            if let binding = resolve(name, at: location) {
                switch binding {
                case .global(_, let isLet, _), .local(_, let isLet, _):
                    if isLet {
                        error(
                            "cannot assign to '\(name)': it is a 'let' constant; declare it with 'var' to change it",
                            at: location, length: length)
                    }
                case .context, .function, .classRef:
                    error("cannot assign to '\(name)'", at: location, length: length)
                }
                return
            }
            if let cls = selfClass {
                checkMemberAssignment(cls, name, location)
                return
            }
            error(
                "cannot find '\(name)' in scope\(Suggestion.didYouMean(name, in: namesInScope()))", at: location,
                length: length)
        case .member(let receiver, let name, let location):
            if let cls = checkExpr(receiver) { checkMemberAssignment(cls, name, location) }
        case .subscripted(let base, let index, _):
            _ = checkExpr(index)
            checkLValue(base)
        default:
            error("cannot assign to this expression", at: target.location)
        }
    }

    /// `o.prop = v` needs a property with a setter; `o._prop = v` a stored one.
    private func checkMemberAssignment(_ cls: ScriptClass, _ name: String, _ location: SourceLocation) {
        let isIvar = name.hasPrefix("_") && name.count > 1
        let key = isIvar ? String(name.dropFirst()) : name
        guard let property = cls.info.property(named: key) else {
            let names = cls.info.properties.map(\.name)
            error(
                "value of type '\(cls.info.name)' has no property '\(key)'\(Suggestion.didYouMean(key, in: names))",
                at: location, length: name.count + 1)
            return
        }
        if !isIvar && property.isReadOnly {
            error(
                "cannot assign to '\(key)': it is a computed property without a setter", at: location,
                length: name.count + 1)
        }
    }
}

// MARK: Expressions

extension Checker {
    /// Checks an expression; returns its class when it is known statically
    /// (a variable initialised with `Account(…)`, `self`, a to-one property),
    /// so members can be checked by name.
    @discardableResult
    func checkExpr(_ expr: Expr) -> ScriptClass? {
        switch expr {
        case .literal:
            return nil
        case .interpolation(let parts, _):
            for case .expr(let inner) in parts { checkExpr(inner) }
            return nil
        case .identifier(let name, let location, let length):
            return checkIdentifier(name, location, length)
        case .selfRef(let location):
            guard let cls = selfClass else {
                error("'self' is only available inside methods", at: location, length: 4)
                return nil
            }
            return cls
        case .dotName(let name, let location):
            if Compiler.dotLiterals[name] == nil {
                let suggestion =
                    Suggestion.closest(to: name, in: Array(Compiler.dotLiterals.keys)).map {
                        "; did you mean '.\($0)'?"
                    } ?? ""
                error("unknown literal '.\(name)'\(suggestion)", at: location, length: name.count + 1)
            }
            return nil
        case .arrayLiteral(let elements, _):
            for element in elements { checkExpr(element) }
            return nil
        case .dictionaryLiteral(_, let location):
            // Only an NSError's `userInfo` takes one (checkSwiftBuiltin); the
            // parser reports the others, except another call's `userInfo:`.
            error(Parser.dictionaryMessage, at: location)
            return nil
        case .member(let receiver, let name, let location):
            return checkMember(checkExpr(receiver), name, location)
        case .superMember(let name, let location):
            error("'super.\(name)' must be called: 'super.\(name)(…)'", at: location)
            return nil
        case .call(let callee, let arguments, let location):
            return checkCall(callee, arguments, location)
        case .subscripted(let base, let index, _):
            checkExpr(base)
            checkExpr(index)
            return nil
        case .unary(_, let operand, _):
            checkExpr(operand)
            return nil
        case .binary(let op, let lhs, let rhs, let location):
            checkExpr(lhs)
            checkExpr(rhs)
            checkOperator(op, at: location)
            return nil
        case .keyPath(_, let location):
            error(
                "a key path like '\\.balance' is the first argument of 'observe(…)'; elsewhere write the key as a "
                    + "string: \"balance\"", at: location)
            return nil
        case .closure(_, let location):
            error(
                "closures are only supported as the handler of 'observe(_:options:changeHandler:)'; declare a 'func' "
                    + "instead", at: location)
            return nil
        case .cast(let inner, let type, _, _, _):
            checkExpr(inner)
            return checkCastType(type)
        case .forceUnwrap(let inner, _):
            return checkExpr(inner)
        case .chain(let first, let links, _):
            // Flat: one operand after another, never one call per link.
            checkExpr(first)
            for link in links {
                checkExpr(link.operand)
                checkOperator(link.op, at: link.location)
            }
            return nil
        }
    }

    private func checkOperator(_ op: String, at location: SourceLocation) {
        switch op {
        case "&&", "||", "??":
            break
        case "..<", "...":
            error("ranges can only be used in 'for … in'", at: location, length: op.count)
        default:
            if !Operators.isBinary(op) { error("unknown operator '\(op)'", at: location, length: op.count) }
        }
    }

    private func checkIdentifier(_ name: String, _ location: SourceLocation, _ length: Int) -> ScriptClass? {
        if let binding = resolve(name, at: location) {
            switch binding {
            case .global(_, _, let type), .local(_, _, let type): return type
            case .context, .function, .classRef: return nil
            }
        }
        if let cls = selfClass {
            let isIvar = name.hasPrefix("_") && name.count > 1
            let key = isIvar ? String(name.dropFirst()) : name
            if let property = cls.info.property(named: key) { return propertyClass(property) }
            if cls.method(name) != nil {
                error("method '\(name)' must be called: '\(name)(…)'", at: location, length: length)
                return nil
            }
            if name == "observationInfo" { return nil }
        }
        if name == "error" {
            error("'error' is only available inside a 'catch' block", at: location, length: length)
        } else {
            error(
                "cannot find '\(name)' in scope\(Suggestion.didYouMean(name, in: namesInScope()))", at: location,
                length: length)
        }
        return nil
    }

    /// `x.name`: checked by name when the class of `x` is known.
    private func checkMember(_ cls: ScriptClass?, _ name: String, _ location: SourceLocation) -> ScriptClass? {
        guard let cls else { return nil }
        let isIvar = name.hasPrefix("_") && name.count > 1
        let key = isIvar ? String(name.dropFirst()) : name
        if let property = cls.info.property(named: key) { return propertyClass(property) }
        if name != "observationInfo" && name != "className" {
            let names = cls.info.properties.map(\.name) + ["observationInfo"]
            error(
                "value of type '\(cls.info.name)' has no property '\(key)'\(Suggestion.didYouMean(key, in: names))",
                at: location, length: name.count + 1)
        }
        return nil
    }
}

// MARK: Calls

extension Checker {
    private func checkCall(_ callee: Expr, _ arguments: [Argument], _ location: SourceLocation) -> ScriptClass? {
        switch callee {
        case .identifier(let name, let nameLocation, let length):
            return checkNamedCall(name, arguments, nameLocation, length)
        case .member(let receiver, let name, let memberLocation):
            checkMethodCall(receiver, name, arguments, memberLocation)
            return nil
        case .superMember(let name, let memberLocation):
            checkSuperCall(name, arguments, memberLocation)
            return nil
        default:
            error("cannot call this expression", at: location)
            return nil
        }
    }

    /// `print(items…, separator: s, terminator: t)`, as Swift's.
    private func checkPrintLabels(_ arguments: [Argument]) {
        var seenLabel = false
        for argument in arguments {
            guard let label = argument.label else {
                if seenLabel { error("print's items come before separator: and terminator:", at: argument.location) }
                continue
            }
            seenLabel = true
            if label != "separator" && label != "terminator" {
                error(
                    "print has no argument '\(label):'; it takes items, then separator: and terminator:",
                    at: argument.location, length: label.count)
            }
        }
    }

    func checkArguments(_ arguments: [Argument]) {
        for argument in arguments { checkExpr(argument.value) }
    }

    func checkArity(_ box: FunctionBox, _ arguments: [Argument], _ location: SourceLocation) {
        let expected = box.parameters.count
        if expected != arguments.count {
            error(
                "'\(box.name)' takes \(expected) argument\(expected == 1 ? "" : "s") (\(box.parameters.joined(separator: ", "))), but \(arguments.count) \(arguments.count == 1 ? "was" : "were") given",
                at: location, length: box.name.count)
        }
    }

    private func checkNamedCall(
        _ name: String, _ arguments: [Argument], _ location: SourceLocation, _ length: Int
    ) -> ScriptClass? {
        switch name {
        case "print":
            checkPrintLabels(arguments)
            checkArguments(arguments)
            return nil
        case "assert":
            guard (1...2).contains(arguments.count) else {
                error("'assert' takes a condition and an optional message", at: location, length: length)
                return nil
            }
            checkArguments(arguments)
            return nil
        case "type", "object_getClass", "NSStringFromClass", "NSError":
            checkSwiftBuiltin(name, arguments, location, length)
            return nil
        default:
            break
        }
        if let binding = resolve(name, at: location) {
            switch binding {
            case .classRef(let cls):
                checkConstructor(cls, arguments)
                return cls
            case .function(let box):
                checkArity(box, arguments, location)
                checkArguments(arguments)
            case .global, .local, .context:
                error("cannot call '\(name)': it is not a function", at: location, length: length)
            }
            return nil
        }
        if let state = function, let cls = state.cls {
            if !state.isStatic, cls.method(name) != nil || Builtins.names.contains(name) {
                checkMethodCall(.selfRef(location), name, arguments, location)
                return nil
            }
            if state.isStatic, let box = cls.staticMethod(name) {
                checkArity(box, arguments, location)
                checkArguments(arguments)
                return nil
            }
        }
        if name == "graph" {
            // `graph(o…)`: the observation graph now; a function of the
            // scenario's own named `graph` is found first.
            if arguments.isEmpty {
                error("'graph' takes the objects to draw from, as in 'graph(acct)'", at: location, length: length)
            }
            checkArguments(arguments)
            return nil
        }
        let suggestion = Suggestion.didYouMean(name, in: namesInScope() + Array(environment.classes.keys))
        if name.first?.isUppercase == true && !suggestion.isEmpty {
            error("unknown class '\(name)'\(suggestion)", at: location, length: length)
        } else {
            error("cannot find '\(name)' in scope\(suggestion)", at: location, length: length)
        }
        return nil
    }

    /// `Account(balance: 100)`: each label a settable property.
    private func checkConstructor(_ cls: ScriptClass, _ arguments: [Argument]) {
        let name = cls.info.name
        if let initializer = cls.anyInitializer {
            checkInitializerCall(cls, initializer, arguments)
            return
        }
        for argument in arguments {
            guard let label = argument.label else {
                error(
                    "arguments to '\(name)(…)' need property labels, as in '\(name)(\(cls.info.properties.first?.name ?? "name"): …)'",
                    at: argument.location)
                continue
            }
            guard let property = cls.info.property(named: label), !property.isReadOnly else {
                let names = cls.info.properties.filter { !$0.isReadOnly }.map(\.name)
                error(
                    "'\(name)' has no stored property '\(label)'\(Suggestion.didYouMean(label, in: names))",
                    at: argument.location, length: label.count)
                continue
            }
            checkExpr(argument.value)
        }
    }

    private func checkMethodCall(_ receiver: Expr, _ name: String, _ arguments: [Argument], _ location: SourceLocation)
    {
        // Class methods: `Account.keyPathsForValuesAffecting("x")`.
        if case .identifier(let className, let classLocation, _) = receiver,
            case .classRef(let cls)? = lookup(className)
        {
            resolutions.bindings[classLocation] = .classRef(cls)
            guard let box = cls.staticMethod(name) else {
                error("type '\(className)' has no static method '\(name)'", at: location, length: name.count)
                return
            }
            checkArity(box, arguments, location)
            checkArguments(arguments)
            return
        }
        let labels = arguments.map { $0.label ?? "_" }
        let signature = Builtins.signature(name, labels)
        if name == "append", labels == ["_"], isAssignable(receiver) {
            checkLValue(receiver)
            checkArguments(arguments)
            return
        }
        if name == "observe" {
            checkObserve(receiver, arguments, location)
            return
        }
        let cls = checkExpr(receiver)
        checkArguments(arguments)
        if let cls, cls.method(name) == nil, Builtins.table[signature] != nil {
            checkKeyArgument(of: name, arguments, on: cls)
        }
        func labelsError() {
            let expected = Builtins.signatures(named: name).joined(separator: "', '")
            error(
                "incorrect argument labels in call to '\(name)' (have '\(name)(\(labels.map { $0 + ":" }.joined()))', expected '\(expected)')",
                at: location, length: name.count + 1)
        }
        if let cls, cls.method(name) != nil || Builtins.table[signature] == nil {
            guard let box = cls.method(name) else {
                if Builtins.names.contains(name) { return labelsError() }
                let candidates = cls.allMethodNames + Array(Builtins.names)
                error(
                    "value of type '\(cls.info.name)' has no method '\(name)'\(Suggestion.didYouMean(name, in: candidates))",
                    at: location, length: name.count + 1)
                return
            }
            checkArity(box, arguments, location)
            return
        }
        if cls == nil, Builtins.table[signature] == nil, Builtins.names.contains(name) { labelsError() }
    }

    /// Whether `x.append(y)` can store back into `x`.
    private func isAssignable(_ expr: Expr) -> Bool {
        switch expr {
        case .identifier(let name, _, _):
            if let binding = lookup(name) {
                switch binding {
                case .global(_, let isLet, _), .local(_, let isLet, _): return !isLet
                case .context, .function, .classRef: return false
                }
            }
            let key = name.hasPrefix("_") ? String(name.dropFirst()) : name
            return function?.cls?.info.property(named: key) != nil
        case .member: return true
        case .subscripted(let base, _, _): return isAssignable(base)
        default: return false
        }
    }

    private func checkSuperCall(_ name: String, _ arguments: [Argument], _ location: SourceLocation) {
        guard let state = function, let cls = state.cls else {
            error("'super' is only available inside methods", at: location)
            return
        }
        checkArguments(arguments)
        if name == "init" {
            if let box = cls.superclass?.anyInitializer { checkArity(box, arguments, location) }
            return
        }
        let superclass = cls.superclass
        if let box = state.isStatic ? superclass?.staticMethod(name) : superclass?.method(name) {
            checkArity(box, arguments, location)
            return
        }
        if let hook = Hook.all.first(where: { $0.name == name }) {
            if arguments.count != hook.parameters {
                error("'super.\(name)' takes \(hook.signature)", at: location)
            }
            return
        }
        let labels = arguments.map { $0.label ?? "_" }
        if !state.isStatic, Builtins.table[Builtins.signature(name, labels)] != nil { return }
        error("'\(superclass?.info.name ?? "NSObject")' has no method '\(name)'", at: location, length: name.count)
    }
}
