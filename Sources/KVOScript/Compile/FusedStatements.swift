import KVOCore

/// Fused statements: the common shapes of a loop (`i = i + 1`, `i < n`,
/// `account.balance = i`) compiled to one closure each, reading their
/// variables in place, instead of a closure per expression node wrapped in
/// `counted`. Each counts its step and locates its errors exactly as
/// `counted` does, and takes the general path whenever its assumptions fail
/// (a variable that is not an Int, an overflow), so nothing a scenario can
/// observe changes: only the instructions a statement costs.

/// A variable an operator reads or a fused statement writes in place.
enum VariableSlot {
    case global(Int)
    case local(Int)

    @inline(__always)
    func read(_ machine: Machine) -> Value {
        switch self {
        case .global(let slot): return machine.globals[slot]
        case .local(let slot): return machine.local(slot)
        }
    }

    /// Stores `value`, releasing a collection the variable held without
    /// recursion, as `Compiler.storer` does.
    @inline(__always)
    func write(_ value: Value, _ machine: Machine) {
        switch self {
        case .global(let slot): Self.replace(&machine.globals[slot], with: value)
        case .local(let slot): Self.replace(&machine.stack[machine.base &+ slot], with: value)
        }
    }

    /// `Value.replace`, which is not inlined across the module boundary: a
    /// call for each `i = i + 1`.
    @inline(__always)
    private static func replace(_ slot: inout Value, with value: Value) {
        switch slot {
        case .array, .set: Value.replace(&slot, with: value)
        default: slot = value
        }
    }
}

/// An Int operand of a fused statement: a variable or an Int constant.
enum IntOperand {
    case variable(VariableSlot)
    case constant(Int)

    /// The Int it holds now; nil when the variable holds anything else.
    @inline(__always)
    func int(_ machine: Machine) -> Int? {
        switch self {
        case .variable(let slot):
            if case .int(let value) = slot.read(machine) { return value }
            return nil
        case .constant(let value):
            return value
        }
    }
}

/// `+`, `-` and `*` on Ints; nil on overflow, which the general path
/// reports as the runtime error at the operator.
enum IntArithmetic {
    case add, subtract, multiply

    init?(_ op: String) {
        switch op {
        case "+": self = .add
        case "-": self = .subtract
        case "*": self = .multiply
        default: return nil
        }
    }

    @inline(__always)
    func apply(_ a: Int, _ b: Int) -> Int? {
        let (result, overflow): (Int, Bool)
        switch self {
        case .add: (result, overflow) = a.addingReportingOverflow(b)
        case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
        case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
        }
        return overflow ? nil : result
    }
}

/// `x = a + b` (or `-`, `*`), `x += b`, `x -= b`, `x *= b` on Ints.
struct IntUpdate {
    let target: VariableSlot
    let lhs: IntOperand
    let arithmetic: IntArithmetic
    let rhs: IntOperand

    /// Stores the result and returns true; false (having changed nothing)
    /// when an operand is not an Int or the result overflows.
    @inline(__always)
    func run(_ machine: Machine) -> Bool {
        guard let a = lhs.int(machine), let b = rhs.int(machine), let result = arithmetic.apply(a, b) else {
            return false
        }
        target.write(.int(result), machine)
        return true
    }
}

/// One side of a fused comparison: an operand, or an operand modulo a
/// constant that is neither 0 nor -1 (so `%` can neither fail nor overflow).
struct IntTerm {
    let operand: IntOperand
    let modulus: Int?

    @inline(__always)
    func int(_ machine: Machine) -> Int? {
        guard let value = operand.int(machine) else { return nil }
        guard let modulus else { return value }
        return value % modulus
    }
}

/// `a < b`, `i % 2 == 0` and the other comparisons of two Int terms.
struct IntComparison {
    enum Relation {
        case less, lessOrEqual, greater, greaterOrEqual, equal, notEqual

        init?(_ op: String) {
            switch op {
            case "<": self = .less
            case "<=": self = .lessOrEqual
            case ">": self = .greater
            case ">=": self = .greaterOrEqual
            case "==": self = .equal
            case "!=": self = .notEqual
            default: return nil
            }
        }
    }

    let lhs: IntTerm
    let relation: Relation
    let rhs: IntTerm

    /// The comparison's answer; nil when a term is not an Int.
    @inline(__always)
    func evaluate(_ machine: Machine) -> Bool? {
        guard let a = lhs.int(machine), let b = rhs.int(machine) else { return nil }
        switch relation {
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        case .equal: return a == b
        case .notEqual: return a != b
        }
    }
}

/// The condition of an `if` or a `while`: an Int comparison tried in place,
/// then the compiled expression and `Operators.truth`, as before. For Ints
/// both give the same answer, and reading a variable has no side effect, so
/// the general path may run after the fast one gave up.
struct Condition {
    let comparison: IntComparison?
    let general: Eval

    @inline(__always)
    func test(_ machine: Machine) throws -> Bool {
        if let comparison, let answer = comparison.evaluate(machine) { return answer }
        return try Operators.truth(try general(machine))
    }
}

/// Where a fused member set reads a value: a variable in place, a property
/// of an object a variable holds, or a compiled expression.
enum ValueSource {
    case variable(VariableSlot)
    /// `person.account`, where the variable's class is known and declares
    /// the property: what `compileMember` compiles it to, without the two
    /// closures (the variable's and the member's).
    case member(VariableSlot, key: String, declared: PropertyInfo, cache: MemberCache)
    case eval(Eval)

    @inline(__always)
    func read(_ machine: Machine) throws -> Value {
        switch self {
        case .variable(let slot):
            return slot.read(machine)
        case .member(let slot, let key, let declared, let cache):
            guard case .object(let object) = slot.read(machine) else { return .null }
            return try machine.kvo.get(object, cache.lookup(object, key) ?? declared)
        case .eval(let eval):
            return try eval(machine)
        }
    }
}

extension Compiler {
    /// `statement` as one closure that counts its own step, or nil when it
    /// has no fused form. `general` compiles the statement's ordinary body
    /// (not counted), for the fused form to fall back on.
    func compileFused(_ statement: Stmt, general: () -> Exec) -> Exec? {
        guard case .assign(let target, let op, let value, let location) = statement else { return nil }
        if let update = intUpdate(target, op, value) {
            let fallback = general()
            if case .global(let slot) = update.target, case .variable(.global(slot)) = update.lhs,
                case .constant(let constant) = update.rhs, case .add = update.arithmetic
            {
                // `i = i + 1` on a global, the loop counter of a top-level
                // loop: the slot and the constant are read here, with no
                // operand to switch on.
                return { machine in
                    try machine.step()
                    if case .int(let current) = machine.globals[slot] {
                        let (sum, overflow) = current.addingReportingOverflow(constant)
                        if !overflow {
                            machine.globals[slot] = .int(sum)
                            return nil
                        }
                    }
                    return try Self.located(at: location) { try fallback(machine) }
                }
            }
            return { machine in
                try machine.step()
                if update.run(machine) { return nil }
                return try Self.located(at: location) { try fallback(machine) }
            }
        }
        if op == "=", case .member(let receiver, let name, _) = target {
            return fusedMemberSet(receiver, name, value, at: location)
        }
        return nil
    }

    /// The condition of an `if` or `while`.
    func compileCondition(_ expr: Expr) -> Condition {
        Condition(comparison: intComparison(expr), general: compileExpr(expr).eval)
    }

    /// `o.prop = value`: what the `LValue` of `o.prop` does, in one closure.
    /// The value is evaluated first, then the receiver, then the property is
    /// found (cached per class) and set through `KVORuntime.set`, which
    /// decides about custom setters, notification and type checks as for
    /// every set; `o._prop = value` stores into the instance variable.
    private func fusedMemberSet(
        _ receiver: Expr, _ name: String, _ value: Expr, at location: SourceLocation
    )
        -> Exec
    {
        // Compiled in the order the `LValue` path compiled them.
        let receiverSource = valueSource(receiver)
        let source = valueSource(value)
        let isIvar = name.hasPrefix("_") && name.count > 1
        let key = isIvar ? String(name.dropFirst()) : name
        let cache = MemberCache()
        return { machine in
            try machine.step()
            return try Self.located(at: location) {
                let newValue = try source.read(machine)
                let object = try Self.object(try receiverSource.read(machine), for: name)
                let property = try cache.property(of: object, key)
                if isIvar {
                    try machine.kvo.setIvar(object, property, newValue)
                } else {
                    try machine.kvo.set(object, property, newValue)
                }
                return nil
            }
        }
    }

    private func valueSource(_ expr: Expr) -> ValueSource {
        if let slot = variableSlot(expr) { return .variable(slot) }
        if case .member(let receiver, let name, _) = expr, !name.hasPrefix("_"),
            case .identifier(_, let location, _) = receiver
        {
            switch binding(at: location) {
            case .global(let index, _, let cls?)?:
                if let property = cls.info.property(named: name) {
                    return .member(.global(index), key: name, declared: property, cache: MemberCache())
                }
            case .local(let index, _, let cls?)?:
                if let property = cls.info.property(named: name) {
                    return .member(.local(index), key: name, declared: property, cache: MemberCache())
                }
            default:
                break
            }
        }
        return .eval(compileExpr(expr).eval)
    }

    /// The variable `expr` names: a global or a local, `let` or `var`.
    private func variableSlot(_ expr: Expr) -> VariableSlot? {
        guard case .identifier(_, let location, _) = expr else { return nil }
        switch binding(at: location) {
        case .global(let slot, _, _)?: return .global(slot)
        case .local(let slot, _, _)?: return .local(slot)
        default: return nil
        }
    }

    private func intOperand(_ expr: Expr) -> IntOperand? {
        if case .literal(.int(let value), _) = expr { return .constant(value) }
        return variableSlot(expr).map(IntOperand.variable)
    }

    /// `x = a + b`, `x += b` and the like, where `x` is a `var` and the
    /// operands are variables or Int literals.
    private func intUpdate(_ target: Expr, _ op: String, _ value: Expr) -> IntUpdate? {
        guard case .identifier(_, let location, _) = target else { return nil }
        let slot: VariableSlot
        switch binding(at: location) {
        case .global(let index, false, _)?: slot = .global(index)
        case .local(let index, false, _)?: slot = .local(index)
        default: return nil
        }
        if op == "=" {
            guard case .binary(let operatorName, let lhs, let rhs, _) = value,
                let arithmetic = IntArithmetic(operatorName),
                let a = intOperand(lhs), let b = intOperand(rhs)
            else { return nil }
            return IntUpdate(target: slot, lhs: a, arithmetic: arithmetic, rhs: b)
        }
        guard op.hasSuffix("="), let arithmetic = IntArithmetic(String(op.dropLast())), let b = intOperand(value)
        else { return nil }
        return IntUpdate(target: slot, lhs: .variable(slot), arithmetic: arithmetic, rhs: b)
    }

    private func intComparison(_ expr: Expr) -> IntComparison? {
        guard case .binary(let op, let lhs, let rhs, _) = expr, let relation = IntComparison.Relation(op),
            let a = intTerm(lhs), let b = intTerm(rhs)
        else { return nil }
        return IntComparison(lhs: a, relation: relation, rhs: b)
    }

    private func intTerm(_ expr: Expr) -> IntTerm? {
        if let operand = intOperand(expr) { return IntTerm(operand: operand, modulus: nil) }
        guard case .binary("%", let lhs, .literal(.int(let modulus), _), _) = expr, modulus != 0, modulus != -1,
            let operand = intOperand(lhs)
        else { return nil }
        return IntTerm(operand: operand, modulus: modulus)
    }
}
