import KVOCore

/// Code generation for the Swift spellings the scenario language accepts
/// (SPEC §11.2, §11.3, §11.5): `observe` and its tokens, casts and
/// optionals, `init`, property observers, `type(of:)` and `object_getClass`,
/// `throw NSError(…)`. Swift programs themselves are compiled by swiftc.
extension Compiler {
    /// Literals Swift's spellings write after a dot (`change?[.newKey]`,
    /// `.whitespacesAndNewlines`), beyond the scenario's own.
    // MARK: Casts and unwrapping

    func compileCast(
        _ inner: Expr, _ type: TypeSyntax, forced: Bool, conditional: Bool,
        _ location: SourceLocation
    ) -> Typed {
        let eval = compileExpr(inner).eval
        let target = type.type
        var cls: ScriptClass?
        if case .object(let name) = target { cls = environment.classes[name] }
        let written = type.swiftName
        return Typed(
            { machine in
                let value = try eval(machine)
                if !conditional && !forced { return value }
                if let cast = Self.cast(value, to: target) { return cast }
                if conditional { return .null }
                throw ScriptError.runtime(.castFailed(type: value.typeName, written: written))
            }, cls)
    }

    /// What `as? T` gives for a value, as NSNumber and the bridges convert;
    /// nil when it does not cast.
    static func cast(_ value: Value, to type: ValueType) -> Value? {
        switch (type, value) {
        case (_, .null): return nil
        case (.any, _): return value
        case (.double, .int(let number)): return .double(Double(number))
        case (.double, .double), (.int, .int), (.bool, .bool), (.string, .string): return value
        case (.double, .bool(let flag)): return .double(flag ? 1 : 0)
        case (.int, .double(let number)):
            guard let exact = Value.int(exactlyTruncating: number), Double(exact) == number else { return nil }
            return .int(exact)
        case (.int, .bool(let flag)): return .int(flag ? 1 : 0)
        case (.bool, .int(let number)) where number == 0 || number == 1: return .bool(number == 1)
        case (.object("NSNumber"), _) where value.isScalar: return value
        case (.object("NSString"), .string): return value
        case (.object("NSObject"), _): return value
        default: return type.accept(value)
        }
    }

    func compileNilCoalescing(_ lhs: Expr, _ rhs: Expr) -> Typed {
        let left = compileExpr(lhs).eval
        let right = compileExpr(rhs).eval
        return Typed({ machine in
            let value = try left(machine)
            return value.isNull ? try right(machine) : value
        })
    }

    // MARK: observe and tokens

    func compileObserve(_ receiver: Expr, _ arguments: [Argument], nameHint: String?) -> Typed {
        let receiverTyped = compileExpr(receiver)
        guard case .keyPath(let literal, _) = arguments[0].value,
            case .closure(let closure, let closureLocation) = arguments[arguments.count - 1].value
        else {
            return Typed(Self.unreachable("an 'observe' call"))
        }
        let optionsEval = arguments.count == 3 ? compileExpr(arguments[1].value).eval : { _ in .array([]) }
        let outer = function?.isStatic == false ? function?.cls : nil
        let (body, frameSize) = compileInMethod(
            outer, isStatic: outer == nil, name: "observe handler",
            key: closureLocation
        ) {
            self.compileBlock(closure.body)
        }
        let handler = FunctionBox(
            name: "observe handler", parameters: closure.parameters, isStatic: outer == nil,
            location: closureLocation)
        handler.body = body
        handler.frameSize = frameSize
        let receiverEval = receiverTyped.eval
        let keyPath = literal.path
        return Typed({ machine in
            let target = try receiverEval(machine)
            guard case .object(let object) = target else { return .null }
            let options = try Builtins.options(try optionsEval(machine))
            let token = machine.kvo.makeObject(machine.tokens.tokenClass(machine), name: nameHint)
            let observation = ObserveTokens.Observation(
                token: token, observed: object, keyPath: keyPath, handler: handler,
                capturedSelf: outer == nil ? nil : machine.selfObject)
            machine.tokens.observations[ObjectIdentifier(token)] = observation
            do {
                try machine.kvo.addObserver(token, to: target, keyPath: keyPath, options: options, context: nil)
            } catch {
                machine.tokens.observations[ObjectIdentifier(token)] = nil
                throw error
            }
            return .object(token)
        })
    }

    /// `_ = o.observe(…)` and a bare `o.observe(…)`: the token is released
    /// as soon as the statement ends.
    func compileDiscard(_ value: Expr) -> Exec {
        let eval = compileExpr(value).eval
        return { machine in
            machine.invalidate(try eval(machine), released: true)
            return nil
        }
    }

    // MARK: Built-in functions

    func compileSwiftBuiltin(_ name: String, _ arguments: [Argument]) -> Typed {
        let evals = arguments.map { compileExpr($0.value).eval }
        switch name {
        case "type":
            return Typed({ machine in
                let value = try evals[0](machine)
                guard case .object(let object) = value else { return .string(value.typeName) }
                return .string(object.cls.name)
            })
        case "object_getClass":
            return Typed({ machine in
                guard case .object(let object) = try evals[0](machine) else { return .null }
                return .string(try machine.runtimeClassName(object))
            })
        case "NSStringFromClass":
            // `type(of: o)` and `object_getClass(o)` are already the class's name.
            return Typed({ machine in try evals[0](machine) })
        default:  // NSError(domain:code:description:), NSError(domain:code:userInfo:)
            // The description: the third argument, or the NSLocalizedDescriptionKey
            // value of a userInfo literal; none for `userInfo: nil` or `[:]`.
            let descriptionEval: Eval?
            switch arguments.dropFirst(2).first {
            case .some(let argument) where argument.label == "userInfo":
                if case .dictionaryLiteral(let pairs, _) = argument.value, let pair = pairs.first {
                    descriptionEval = compileExpr(pair.value).eval
                } else {
                    descriptionEval = nil
                }
            case .some: descriptionEval = evals.dropFirst(2).first
            case .none: descriptionEval = nil
            }
            return Typed({ machine in
                let domain = try evals[0](machine).printDescription
                let codeValue = try evals[1](machine)
                let code = codeValue.printDescription
                let description = try descriptionEval.map { try $0(machine).printDescription }
                // Foundation's description of an NSError; "(null)" without a description.
                let reason =
                    description.map {
                        "Error Domain=\(domain) Code=\(code) \"\($0)\" UserInfo={NSLocalizedDescription=\($0)}"
                    } ?? "Error Domain=\(domain) Code=\(code) \"(null)\""
                var error = CocoaException(name: "NSError", reason: reason, depth: machine.kvo.depth)
                let codeNumber: Int? = if case .int(let number) = codeValue { number } else { nil }
                error.error = NSErrorFields(domain: domain, code: codeNumber, description: description)
                return .exception(error)
            })
        }
    }

    /// `error.domain`, `error.code`, `error.localizedDescription` of an NSError;
    /// a Cocoa exception's `localizedDescription` is its reason.
    static func errorField(_ exception: CocoaException, _ name: String) -> Value? {
        guard let fields = exception.error else {
            return name == "localizedDescription" ? .string(exception.reason) : nil
        }
        switch name {
        case "domain": return .string(fields.domain)
        case "code": return fields.code.map(Value.int)
        case "localizedDescription":
            // Without a description Foundation makes one from the domain and code.
            return .string(
                fields.description
                    ?? "The operation couldn\u{2019}t be completed. (\(fields.domain) error \(fields.code.map(String.init) ?? "0").)"
            )
        default: return nil
        }
    }

    func compileThrow(_ value: Expr) -> Exec {
        let eval = compileExpr(value).eval
        return { machine in
            guard case .exception(let error) = try eval(machine) else {
                throw ScriptError.runtime(.throwNeedsError)
            }
            // Raised anew here: this depth, and located at this statement.
            var raised = CocoaException(name: error.name, reason: error.reason, depth: machine.kvo.depth)
            raised.error = error.error
            throw ScriptError.exception(raised)
        }
    }

    // MARK: Statements

    func compileGuard(_ name: String?, _ value: Expr, _ otherwise: [Stmt], _ location: SourceLocation) -> Exec {
        let eval = compileExpr(value).eval
        let elseExec = compileBlock(otherwise)
        let store = name == nil ? nil : binding(at: location).map(storer)
        return { machine in
            let result = try eval(machine)
            let passes = name == nil ? try Operators.truth(result) : !result.isNull
            if passes {
                store?(machine, result)
                return nil
            }
            return try elseExec(machine) ?? .null
        }
    }

    // MARK: Classes

    /// `Account(owner: p)` with an `init`: the object, its initial values, then the body.
    func compileInitializerCall(
        _ cls: ScriptClass, _ box: FunctionBox, _ arguments: [Argument],
        nameHint: String?
    ) -> Typed {
        let evals = arguments.map { compileExpr($0.value).eval }
        let info = cls.info
        return Typed(
            { machine in
                try machine.construct(info, name: nameHint) { object in
                    try machine.runInitialValues(of: cls) { property, value in
                        try machine.kvo.setIvar(object, property, value)
                    }
                    _ = try machine.invoke(box, selfObject: object, arguments: try evals.map { try $0(machine) })
                }
            }, cls)
    }

    func compileInitializerBody(_ decl: ClassDecl, _ cls: ScriptClass) {
        guard let initializer = decl.initializer, let box = cls.initializer else { return }
        let (exec, frameSize) = compileInMethod(cls, name: "init", key: initializer.location) {
            self.compileBlock(initializer.body)
        }
        box.body = exec
        box.frameSize = frameSize
    }

    /// `willSet` and `didSet`: the setter runs them around the store, inside
    /// the change's will and did phases.
    func definePropertyObservers(_ decl: PropertyDecl, _ property: PropertyInfo, in cls: ScriptClass) {
        guard decl.willSet != nil || decl.didSet != nil, property.slot != nil else { return }
        let compileObserver = { (body: [Stmt]?, key: SourceLocation) -> (Exec, Int)? in
            body.map { body in self.compileInMethod(cls, key: key) { self.compileBlock(body) } }
        }
        let willSet = compileObserver(decl.willSet, Resolutions.willSetKey(decl))
        let didSet = compileObserver(decl.didSet, Resolutions.didSetKey(decl))
        let name = decl.name
        let machine = MachineRef(self.machine)
        property.setter = { object, newValue in
            // `newValue` as the property holds it: an Int given to a Double is 200.0.
            let value = property.type.accept(newValue) ?? newValue
            try machine { machine in
                if let (exec, frameSize) = willSet {
                    _ = try machine.invokeBody(
                        frameSize: frameSize, selfObject: object, argument: value,
                        name: "willSet \(name)"
                    ) { try exec($0) ?? .null }
                }
                let old = object[slot: property.slot ?? 0]
                try machine.kvo.setIvar(object, property, value)
                if let (exec, frameSize) = didSet {
                    _ = try machine.invokeBody(
                        frameSize: frameSize, selfObject: object, argument: old,
                        name: "didSet \(name)"
                    ) { try exec($0) ?? .null }
                }
            }
        }
    }
}
