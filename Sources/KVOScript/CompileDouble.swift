import KVOCore

/// Unboxed Double arithmetic for computed properties.
///
/// A getter such as LabColor's `color`, `redComponent * 0.01 + …`, or
/// `redComponent`, `(lComponent + 16) / 116`, spends most of its time boxing
/// and unboxing `Value`s between operator closures. When a getter body is
/// built only from Double reads of `self` (stored properties declared `Double`,
/// or computed properties whose bodies are themselves such expressions),
/// numeric literals, unary minus and `+ - * /`, the checker also compiles it
/// to a tree of closures over plain Doubles. Such a body has no side effects
/// and cannot fail except as a read of `self` can (a released object, the
/// depth limit), so both forms give the same value and the same errors.
///
/// Int literals are promoted only when the other operand is a Double, as the
/// boxed operators do; anything Int-valued (`count / 2` truncates) stays on
/// the boxed path.
typealias DoubleEval = (Machine) throws -> Double

/// Thrown by an unboxed read that finds something other than a Double in its
/// slot; the getter then runs its boxed form. Stores into a `Double`
/// property convert Ints and refuse the rest, so this is a safety net.
struct NotADouble: Error {}

extension Compiler {
    /// The unboxed form of `expr`, when it has one (see above).
    func compileDouble(_ expr: Expr) -> DoubleEval? {
        switch expr {
        case .identifier, .member:
            return selfDoubleRead(expr)
        case .unary("-", let operand, _):
            guard let inner = compileDouble(operand) else { return nil }
            return { -(try inner($0)) }
        case .binary(let op, let lhs, let rhs, _):
            guard ["+", "-", "*", "/"].contains(op) else { return nil }
            switch (numericLiteral(lhs), numericLiteral(rhs)) {
            case (nil, let constant?):
                if let slot = selfDoubleSlot(lhs) {
                    // `lComponent + 16`: the slot is read here.
                    return Self.double(op, slot: slot, constant)
                }
                guard let left = compileDouble(lhs) else { return nil }
                return Self.double(op, left, constant)
            case (let constant?, nil):
                guard let right = compileDouble(rhs) else { return nil }
                return Self.double(op, constant, right)
            case (nil, nil):
                guard let left = compileDouble(lhs), let right = compileDouble(rhs) else { return nil }
                return Self.double(op, left, right)
            case (_?, _?):
                return nil
            }
        default:
            return nil
        }
    }

    /// An Int or Double literal as a Double operand.
    private func numericLiteral(_ expr: Expr) -> Double? {
        switch expr {
        case .literal(.double(let value), _): return value
        case .literal(.int(let value), _): return Double(value)
        default: return nil
        }
    }

    /// The slot of a stored Double property of `self` that `expr` reads.
    private func selfDoubleSlot(_ expr: Expr) -> Int? {
        selfProperty(expr).flatMap(Self.doubleSlot)
    }

    private static func doubleSlot(_ property: PropertyInfo) -> Int? {
        guard case .stored(let slot) = property.storage, case .double = property.type else { return nil }
        return slot
    }

    /// A Double property of `self` that `expr` reads.
    private func selfDoubleRead(_ expr: Expr) -> DoubleEval? {
        guard let property = selfProperty(expr) else { return nil }
        if let slot = Self.doubleSlot(property) { return { machine in try Self.slotDouble(machine, slot) } }
        guard let getter = getterBodies[ObjectIdentifier(property)], let body = getter.doubleEval else { return nil }
        return { machine in try machine.ownGetter(getter, body) }
    }

    /// `self`'s Double in `slot`.
    @inline(__always)
    private static func slotDouble(_ machine: Machine, _ slot: Int) throws -> Double {
        guard case .double(let value) = try machine.ownSlot(slot) else { throw NotADouble() }
        return value
    }

    private static func double(_ op: String, slot: Int, _ right: Double) -> DoubleEval {
        switch op {
        case "+": return { try slotDouble($0, slot) + right }
        case "-": return { try slotDouble($0, slot) - right }
        case "*": return { try slotDouble($0, slot) * right }
        default: return { try slotDouble($0, slot) / right }
        }
    }

    private static func double(_ op: String, _ left: @escaping DoubleEval, _ right: @escaping DoubleEval) -> DoubleEval {
        switch op {
        case "+": return { try left($0) + right($0) }
        case "-": return { try left($0) - right($0) }
        case "*": return { try left($0) * right($0) }
        default: return { try left($0) / right($0) }
        }
    }

    private static func double(_ op: String, _ left: @escaping DoubleEval, _ right: Double) -> DoubleEval {
        switch op {
        case "+": return { try left($0) + right }
        case "-": return { try left($0) - right }
        case "*": return { try left($0) * right }
        default: return { try left($0) / right }
        }
    }

    private static func double(_ op: String, _ left: Double, _ right: @escaping DoubleEval) -> DoubleEval {
        switch op {
        case "+": return { left + (try right($0)) }
        case "-": return { left - (try right($0)) }
        case "*": return { left * (try right($0)) }
        default: return { left / (try right($0)) }
        }
    }
}
