import KVOCore

/// An assignable place: a variable, a property, an instance variable or an
/// element of an array held in one of those.
struct LValue {
    let get: Eval
    let set: (Machine, Value) throws -> Void
}

extension Compiler {
    /// A statement that runs `eval` (an internal error) when reached.
    func exec(_ eval: @escaping Eval) -> Exec {
        { machine in
            _ = try eval(machine)
            return nil
        }
    }

    func compileBlock(_ statements: [Stmt]) -> Exec {
        Self.sequence(compileBlockStatements(statements))
    }

    /// The statements of a block, compiled one by one.
    func compileBlockStatements(_ statements: [Stmt]) -> [ExecBox] {
        blockDepth += 1
        defer { blockDepth -= 1 }
        return statements.map { ExecBox(exec: compileStatement($0, topLevel: false)) }
    }

    /// Runs `execs` in order until one returns.
    static func sequence(_ execs: [ExecBox]) -> Exec {
        switch execs.count {
        case 0: return { _ in nil }
        case 1: return execs[0].exec
        case 2:
            let first = execs[0].exec, second = execs[1].exec
            return { machine in
                if let result = try first(machine) { return result }
                return try second(machine)
            }
        default:
            return { machine in
                for box in execs {
                    if let result = try box.exec(machine) { return result }
                }
                return nil
            }
        }
    }

    /// Compiles one statement, counted as a step; runtime errors and Cocoa
    /// exceptions raised inside it carry its line and column.
    func compileStatement(_ statement: Stmt, topLevel: Bool) -> Exec {
        let general = { self.compileStatementBody(statement, topLevel: topLevel) }
        if let fused = compileFused(statement, general: general) { return fused }
        return counted(general(), at: statement.location)
    }

    /// `body` counted as a step, with `location` given to the runtime errors
    /// and exceptions raised inside it that carry none yet.
    func counted(_ body: @escaping Exec, at location: SourceLocation) -> Exec {
        return { machine in
            try machine.step()
            return try Self.located(at: location) { try body(machine) }
        }
    }

    /// Runs `body`, giving `location` to the runtime errors and exceptions
    /// raised inside it that carry none yet: what `counted` does after the
    /// step, shared with the fused statements, which count their own step.
    @inline(__always)
    static func located<Result>(at location: SourceLocation, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch ScriptError.runtime(var failure) where failure.line == nil {
            failure.line = location.line
            failure.column = location.column
            throw ScriptError.runtime(failure)
        } catch ScriptError.exception(var exception) where exception.line == nil {
            exception.line = location.line
            exception.column = location.column
            throw ScriptError.exception(exception)
        }
    }

    private func compileStatementBody(_ statement: Stmt, topLevel: Bool) -> Exec {
        switch statement {
        case .expression(.call(.member(_, "observe", _), _, _)):
            guard case .expression(let expr) = statement else { return { _ in nil } }
            return compileDiscard(expr)

        case .assign(.identifier("_", _, _), "=", let value, _):
            return compileDiscard(value)

        case .importModule:
            return { _ in nil }

        case .guardLet(let name, let value, let otherwise, let location):
            return compileGuard(name, value, otherwise, location)

        case .throwError(let value, _):
            return compileThrow(value)

        case .ifElse(let branches, let otherwise, _) where branches.contains(where: { $0.binding != nil }):
            let compiled = branches.map { branch in
                (
                    test: compileExpr(branch.condition).eval, body: compileBlock(branch.body),
                    store: branch.binding == nil ? nil : binding(at: branch.location).map(storer)
                )
            }
            let elseExec = otherwise.map(compileBlock)
            return { machine in
                for branch in compiled {
                    let value = try branch.test(machine)
                    if let store = branch.store {
                        if value.isNull { continue }
                        store(machine, value)
                    } else if try !Operators.truth(value) {
                        continue
                    }
                    return try branch.body(machine)
                }
                return try elseExec?(machine)
            }

        case .expression(let expr):
            let eval = compileExpr(expr).eval
            return { machine in
                _ = try eval(machine)
                return nil
            }

        case .binding(_, let name, let typeSyntax, let value, let location):
            let nameHint = topLevel && function == nil && blockDepth == 0 ? name : nil
            let typed = value.map { compileExpr($0, nameHint: nameHint) }
            let declared = typeSyntax?.type
            guard let binding = binding(at: location) else { return exec(Self.unreachable("an unresolved 'let'")) }
            let store = storer(binding)
            let eval: Eval = typed?.eval ?? { _ in declared?.zeroValue ?? .null }
            if let declared, declared != .any {
                return { machine in
                    let value = try eval(machine)
                    guard let accepted = declared.accept(value) else {
                        throw ScriptError.runtime(
                            .assignType(
                                type: value.typeName, value: value.diagnosticDescription, name: name,
                                declared: "\(declared)"))
                    }
                    store(machine, accepted)
                    return nil
                }
            }
            return { machine in
                store(machine, try eval(machine))
                return nil
            }

        case .assign(let target, let op, let value, _):
            guard let place = compileLValue(target) else { return exec(Self.unreachable("an assignment target")) }
            let valueEval = compileExpr(value).eval
            if op == "=" {
                return { machine in
                    try place.set(machine, try valueEval(machine))
                    return nil
                }
            }
            let operatorName = String(op.dropLast())
            guard let combine = Operators.binary(operatorName, meter: machine.kvo.work) else {
                return exec(Self.unreachable("operator '\(op)'"))
            }
            return compileCompoundAssignment(target, op, place, valueEval, combine)

        case .ifElse(let branches, let otherwise, _):
            let compiled = branches.map { branch in
                (condition: compileCondition(branch.condition), body: compileBlock(branch.body))
            }
            let elseExec = otherwise.map(compileBlock)
            if compiled.count == 1, let only = compiled.first {
                let (condition, thenExec) = only
                return { machine in
                    if try condition.test(machine) { return try thenExec(machine) }
                    return try elseExec?(machine)
                }
            }
            // An else-if chain: tried in a loop, never one call per branch.
            return { machine in
                for branch in compiled where try branch.condition.test(machine) {
                    return try branch.body(machine)
                }
                return try elseExec?(machine)
            }

        case .forIn(let name, let sequence, let body, let location):
            return compileFor(name, sequence, body, location)

        case .whileLoop(let condition, let body, _):
            let test = compileCondition(condition)
            let statements = compileBlockStatements(body)
            if statements.count == 2 {
                // The common loop body (`o.p = i; i = i + 1`), run in place
                // rather than through the block's closure.
                let first = statements[0].exec, second = statements[1].exec
                return { machine in
                    while try test.test(machine) {
                        try machine.step()
                        if let result = try first(machine) { return result }
                        if let result = try second(machine) { return result }
                    }
                    return nil
                }
            }
            let bodyExec = Self.sequence(statements)
            return { machine in
                while try test.test(machine) {
                    try machine.step()
                    if let result = try bodyExec(machine) { return result }
                }
                return nil
            }

        case .doCatch(let body, let caught, let handler, let location):
            let exceptionName = caught?.0
            let bodyExec = compileBlock(body)
            guard let errorBinding = binding(at: location) else {
                return exec(Self.unreachable("an unresolved 'error'"))
            }
            let errorStore = storer(errorBinding)
            let handlerExec = compileBlock(handler)
            return { machine in
                do {
                    return try bodyExec(machine)
                } catch ScriptError.exception(let exception)
                    where exceptionName == nil || exception.name == exceptionName
                {
                    machine.emit(.exception(exception, caught: true))
                    errorStore(machine, .exception(exception))
                    return try handlerExec(machine)
                }
            }

        case .returnValue(let value, _):
            guard let value else { return { _ in .null } }
            let eval = compileExpr(value).eval
            return { machine in try eval(machine) }

        case .release(let target, _):
            let eval = compileExpr(target).eval
            return { machine in
                guard case .object(let object) = try eval(machine) else {
                    throw ScriptError.runtime(.releaseNeedsObject)
                }
                machine.invalidate(.object(object), released: true)  // a released token unregisters silently
                try machine.kvo.release(object)
                machine.endTokens(heldBy: object)
                return nil
            }

        case .function, .classDecl, .context:
            // Hoisted at top level; the checker rejects them anywhere else.
            return { _ in nil }
        }
    }

    private func compileFor(_ name: String, _ sequence: Expr, _ body: [Stmt], _ location: SourceLocation) -> Exec {
        guard let loopVariable = binding(at: location) else {
            return exec(Self.unreachable("an unresolved loop variable"))
        }
        let store = storer(loopVariable)
        if case .binary(let op, let lower, let upper, let opLocation) = sequence, op == "..<" || op == "..." {
            let lowerEval = compileExpr(lower).eval
            let upperEval = compileExpr(upper).eval
            let bodyExec = compileBlock(body)
            let closed = op == "..."
            return { machine in
                guard case .int(let from) = try lowerEval(machine), case .int(let to) = try upperEval(machine) else {
                    throw ScriptError.runtime(
                        RuntimeFailure(.rangeNeedsInts, line: opLocation.line, column: opLocation.column))
                }
                guard from <= to else {
                    throw ScriptError.runtime(.rangeBounds(from: from, op: op, to: to))
                }
                if from == to && !closed { return nil }
                var index = from
                while true {
                    try machine.step()
                    store(machine, .int(index))
                    if let result = try bodyExec(machine) { return result }
                    if closed ? index >= to : index >= to - 1 { break }
                    index += 1
                }
                return nil
            }
        }
        let sequenceEval = compileExpr(sequence).eval
        let bodyExec = compileBlock(body)
        return { machine in
            let items: CollectionElements
            switch try sequenceEval(machine) {
            case .array(let values): items = .packed(values)
            case .set(let set): items = .values(set.sorted)
            case let proxy where proxy.isProxy:
                switch try machine.kvo.proxyContents(proxy) {
                case .array(let values): items = .packed(values)
                case .set(let set): items = .values(set.sorted)
                default: items = .values([])
                }
            case let other:
                throw ScriptError.runtime(.forInNeedsCollection(type: other.typeName))
            }
            for item in items {
                try machine.step()
                store(machine, item)
                if let result = try bodyExec(machine) { return result }
            }
            return nil
        }
    }

    // MARK: Variables

    func storer(_ binding: Binding) -> (Machine, Value) -> Void {
        switch binding {
        case .global(let slot, _, _):
            return { machine, value in
                var old = value
                swap(&old, &machine.globals[slot])
                Value.dispose(&old)
            }
        case .local(let slot, _, _):
            return { machine, value in
                var old = value
                swap(&old, &machine.stack[machine.base &+ slot])
                Value.dispose(&old)
            }
        case .context, .function, .classRef: return { _, _ in }
        }
    }

    func loader(_ binding: Binding) -> Eval {
        switch binding {
        case .global(let slot, _, _): return { machine in machine.globals[slot] }
        case .local(let slot, _, _): return { machine in machine.local(slot) }
        case .context(let context): return { _ in .context(context) }
        case .function(let box):
            return { _ in throw ScriptError.runtime(.functionUsedAsValue(box.name)) }
        case .classRef(let cls):
            return { _ in
                throw ScriptError.runtime(.classUsedAsValue(cls.info.name))
            }
        }
    }

    /// Compiles an assignment target; nil (with a diagnostic) when it cannot be assigned.
    func compileLValue(_ target: Expr) -> LValue? {
        switch target {
        case .forceUnwrap(let inner, _):
            return compileLValue(inner)
        case .identifier(let name, let location, _):
            if let binding = binding(at: location) {
                switch binding {
                case .global(_, false, _), .local(_, false, _):
                    return LValue(get: loader(binding), set: storer(binding))
                case .global, .local, .context, .function, .classRef:
                    return nil
                }
            }
            if let cls = function?.cls, function?.isStatic == false {
                let selfEval: Eval = { machine in try machine.selfValue() }
                return memberLValue(Typed(selfEval, cls), name, location)
            }
            return nil
        case .member(let receiver, let name, _):
            return memberLValue(compileExpr(receiver), name, receiver.location)
        case .subscripted(let base, let index, let location):
            if let (receiverEval, name) = propertyReceiver(base) {
                return propertyElementLValue(receiverEval, name, compileExpr(index).eval)
            }
            let indexEval = compileExpr(index).eval
            if let place = compileLValue(base) {
                if case .identifier(_, let baseLocation, _) = base, let binding = binding(at: baseLocation),
                    let setInPlace = Self.elementSetterInPlace(binding)
                {
                    return LValue(
                        get: { machine in
                            try Self.element(of: try place.get(machine), at: try indexEval(machine), machine)
                        },
                        set: { machine, value in
                            let position = try indexEval(machine)
                            if try setInPlace(machine, position, value) { return }
                            try Self.setElement(of: place, try place.get(machine), at: position, to: value, machine)
                        })
                }
                return LValue(
                    get: { machine in try Self.element(of: try place.get(machine), at: try indexEval(machine), machine)
                    },
                    set: { machine, value in
                        let container = try place.get(machine)
                        try Self.setElement(of: place, container, at: try indexEval(machine), to: value, machine)
                    })
            }
            _ = location
            return nil
        default:
            return nil
        }
    }

    /// `o.items[i]`: read through the getter; set with the receiver
    /// evaluated once, as Swift evaluates it, in place when nobody can tell
    /// (`KVORuntime.changeArrayInPlace`: an unobserved stored property),
    /// else the array read, changed and set through the setter (one
    /// notification), or a proxy's `replaceObjectAtIndex:withObject:`.
    private func propertyElementLValue(
        _ receiverEval: @escaping Eval, _ name: String, _ indexEval: @escaping Eval
    )
        -> LValue
    {
        let cache = MemberCache()
        return LValue(
            get: { machine in
                let (object, property) = try Self.property(name, of: receiverEval, machine, cache)
                return try Self.element(of: try machine.kvo.get(object, property), at: try indexEval(machine), machine)
            },
            set: { machine, value in
                let (object, property) = try Self.property(name, of: receiverEval, machine, cache)
                var container = try machine.kvo.get(object, property)
                let position = try indexEval(machine)
                if case .int(let offset) = position, let count = Self.arrayCount(container) {
                    guard offset >= 0 && offset < count else {
                        throw ScriptError.runtime(.arrayIndexOutOfRange(index: offset, count: count))
                    }
                    if machine.kvo.changeArrayInPlace(
                        object, property, storing: value, read: &container, { $0[offset] = $1 })
                    {
                        return
                    }
                }
                let place = LValue(
                    get: { _ in container },
                    set: { machine, array in
                        try machine.kvo.set(object, property, array)
                    })
                try Self.setElement(of: place, container, at: position, to: value, machine)
            })
    }

    /// `o.prop = v` through the setter (notifying), `o._prop = v` to the ivar.
    private func memberLValue(_ receiver: Typed, _ name: String, _ location: SourceLocation) -> LValue? {
        let receiverEval = receiver.eval
        let isIvar = name.hasPrefix("_") && name.count > 1
        let key = isIvar ? String(name.dropFirst()) : name
        let cache = MemberCache()
        let get: Eval = { machine in
            let object = try Self.object(try receiverEval(machine), for: name)
            let property = try cache.property(of: object, key)
            return isIvar ? try Self.ivar(object, property) : try machine.kvo.get(object, property)
        }
        let set: (Machine, Value) throws -> Void = { machine, value in
            let object = try Self.object(try receiverEval(machine), for: name)
            let property = try cache.property(of: object, key)
            if isIvar {
                try machine.kvo.setIvar(object, property, value)
            } else {
                try machine.kvo.set(object, property, value)
            }
        }
        return LValue(get: get, set: set)
    }

    static func object(_ value: Value, for member: String) throws -> KVOObject {
        guard case .object(let object) = value else {
            throw ScriptError.runtime(
                .notAnObject(member: member, type: value.typeName, value: value.diagnosticDescription))
        }
        return object
    }

    static func ivar(_ object: KVOObject, _ property: PropertyInfo) throws -> Value {
        try object.checkAlive()
        guard let slot = property.slot else {
            throw ScriptError.runtime(.computedHasNoIvar(property: property.name, className: object.cls.name))
        }
        return object[slot: slot]
    }

    static func element(of container: Value, at position: Value, _ machine: Machine) throws -> Value {
        if case .change = container, case .string(let key) = position {
            return try machine.kvo.value(of: container, forKey: key)  // `change?[.newKey]`
        }
        if container.isNull { return .null }
        guard case .int(let offset) = position else {
            throw ScriptError.runtime(.indexNotInt(type: position.typeName))
        }
        switch container {
        case .array(let elements):
            guard elements.indices.contains(offset) else {
                throw ScriptError.runtime(.arrayIndexOutOfRange(index: offset, count: elements.count))
            }
            return elements[offset]
        case .arrayProxy:
            guard case .array(let elements) = try machine.kvo.proxyContents(container) else { return .null }
            guard elements.indices.contains(offset) else {
                throw machine.kvo.exception(
                    Exceptions.beyondBounds("objectAtIndex:", index: offset, count: elements.count))
            }
            return elements[offset]
        case .string(let text):
            let characters = Array(text)
            guard characters.indices.contains(offset) else {
                throw ScriptError.runtime(.stringIndexOutOfRange(index: offset, count: characters.count))
            }
            return .string(String(characters[offset]))
        default:
            throw ScriptError.runtime(.cannotSubscript(type: container.typeName))
        }
    }
}

extension Compiler {
    /// `a[i] = v` on a variable holding an array: the array is taken out of
    /// the variable while its element changes, so it has one holder and
    /// changes in place; a copy per assignment made a loop over an array
    /// quadratic. Nothing runs meanwhile that could read the variable (no
    /// observer: a variable's array notifies nobody). False when the
    /// variable holds something else (a proxy, an error), for `place`'s path.
    static func setElement(of variable: inout Value, at position: Value, to value: Value) throws -> Bool {
        guard case .int(let offset) = position, var elements = Value.takeArray(&variable) else { return false }
        defer { variable = .array(elements) }
        guard elements.indices.contains(offset) else {
            throw ScriptError.runtime(.arrayIndexOutOfRange(index: offset, count: elements.count))
        }
        elements[offset] = value
        return true
    }

    /// `x op= v`. As Swift evaluates it, the right-hand side is evaluated
    /// before the target is read (`n += g()` where `g` changes `n` adds to
    /// what `g` left), and a property's receiver once, before both.
    /// `xs += ys` on a variable appends where the array is, as Swift's `+=`
    /// appends: `+` built a new array on every step (100,000 steps took
    /// 6.5 s).
    private func compileCompoundAssignment(
        _ target: Expr, _ op: String, _ place: LValue, _ valueEval: @escaping Eval,
        _ combine: @escaping Operators.Binary
    ) -> Exec {
        if case .identifier(_, let location, _) = target, let binding = binding(at: location),
            let access = Self.variableAccess(binding)
        {
            let appends = op == "+="
            let meter = machine.kvo.work
            return { machine in
                let operand = try valueEval(machine)
                var current = try place.get(machine)
                if appends {
                    let appended = try access(machine) { holder in
                        try Self.appendContents(of: operand, to: &holder, read: &current, meter: meter)
                    }
                    if appended { return nil }
                }
                try place.set(machine, try combine(current, operand))
                return nil
            }
        }
        if let (receiverEval, name) = propertyReceiver(target) {
            let cache = MemberCache()
            let appends = op == "+="
            let meter = machine.kvo.work
            return { machine in
                let (object, property) = try Self.property(name, of: receiverEval, machine, cache)
                let operand = try valueEval(machine)
                var current = try machine.kvo.get(object, property)
                // `o.items += ys` on an unobserved stored property: appended
                // where the array is (`KVORuntime.appendInPlace`).
                if appends, let (count, addedCount) = Self.arrayCounts(current, operand) {
                    try Operators.checkSize(array: count + addedCount)
                    if machine.kvo.appendInPlace(object, property, contentsOf: operand, read: &current) {
                        try meter.charge(addedCount)
                        return nil
                    }
                }
                try machine.kvo.set(object, property, try combine(current, operand))
                return nil
            }
        }
        return { machine in
            let operand = try valueEval(machine)
            try place.set(machine, try combine(try place.get(machine), operand))
            return nil
        }
    }

    /// `setElement(of:at:to:)` on the variable `binding` names, if it is
    /// one (`var`, global or local).
    static func elementSetterInPlace(_ binding: Binding) -> ((Machine, Value, Value) throws -> Bool)? {
        guard let access = variableAccess(binding) else { return nil }
        return { machine, position, value in try access(machine) { try setElement(of: &$0, at: position, to: value) } }
    }

    /// Runs a body on the slot of the variable `binding` names, if it is
    /// one (`var`, global or local), for a change in place.
    static func variableAccess(_ binding: Binding) -> ((Machine, (inout Value) throws -> Bool) throws -> Bool)? {
        switch binding {
        case .global(let slot, false, _):
            return { machine, body in try body(&machine.globals[slot]) }
        case .local(let slot, false, _):
            return { machine, body in try body(&machine.stack[machine.base &+ slot]) }
        default:
            return nil
        }
    }

    /// `holder += added` for arrays, in place: when `holder` still holds
    /// the array `read` was read from, `read` is let go of, so that the
    /// array is held once, and `added`'s elements are appended where it is
    /// (the meter charged for them). False, with nothing changed, for any
    /// other operands: the general `+` then runs on `read`.
    static func appendContents(
        of added: Value, to holder: inout Value, read: inout Value, meter: WorkMeter?
    ) throws -> Bool {
        guard Self.sameStorage(read, holder), let (count, addedCount) = arrayCounts(read, added) else { return false }
        try Operators.checkSize(array: count + addedCount)
        try meter?.charge(addedCount)
        guard var elements = Value.takeArray(&holder) else { return false }
        read = .null
        defer { holder = .array(elements) }
        if case .array(let more) = added { elements.append(contentsOf: more) }
        return true
    }

    /// The counts of two arrays; nil unless both are arrays. A function of
    /// its own, so that the arrays it binds are let go of when it returns.
    static func arrayCounts(_ first: Value, _ second: Value) -> (Int, Int)? {
        guard case .array(let a) = first, case .array(let b) = second else { return nil }
        return (a.count, b.count)
    }

    /// Whether `read` and `holder` are arrays with one storage. A function
    /// of its own, so that the arrays it binds are let go of when it
    /// returns.
    private static func sameStorage(_ read: Value, _ holder: Value) -> Bool {
        guard case .array(let elements) = read, case .array(let held) = holder else { return false }
        return elements.identity == held.identity
    }

    /// `x[i] = v` on any place, `container` read from it: a proxy's
    /// `replaceObjectAtIndex:withObject:`, or the array changed and stored
    /// back through `place`.
    static func setElement(
        of place: LValue, _ container: Value, at position: Value, to value: Value, _ machine: Machine
    ) throws {
        if container.isProxy {
            return try Builtins.replace(container, at: position, with: value, machine)
        }
        guard case .array(var elements) = container else {
            throw ScriptError.runtime(.subscriptAssignment(type: container.typeName))
        }
        guard case .int(let offset) = position else {
            throw ScriptError.runtime(.arrayIndexNotInt)
        }
        guard elements.indices.contains(offset) else {
            throw ScriptError.runtime(.arrayIndexOutOfRange(index: offset, count: elements.count))
        }
        elements[offset] = value
        try place.set(machine, .array(elements))
    }
}

extension Value {
    /// Moves an array out of `slot`, leaving nil, so the caller holds the only reference.
    static func takeArray(_ slot: inout Value) -> PackedArray? {
        guard case .array(let elements) = slot else { return nil }
        slot = .null
        return elements
    }

    var isProxy: Bool {
        switch self {
        case .arrayProxy, .setProxy: return true
        default: return false
        }
    }
}
