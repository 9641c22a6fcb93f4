import KVOCore

/// Unboxed Double arithmetic for computed properties.
///
/// A getter such as LabColor's `color`, `redComponent * 0.01 + …`, or
/// `redComponent`, `(lComponent + 16) / 116`, spends most of its time boxing
/// and unboxing `Value`s between operator closures, and checking at each read
/// that `self` is alive and each nested getter within the depth limit. When a
/// getter body is built only from Double reads of `self` (stored properties
/// declared `Double`, or computed properties whose bodies are themselves such
/// expressions), numeric literals, unary minus and `+ - * /`, the checker also
/// compiles it to a tree of closures over `self`'s slots and plain Doubles,
/// with the bodies of the getters it reads inlined.
///
/// Such a body has no side effects: nothing in it can release `self`, store a
/// property or run a handler. So what the boxed form checks at every read is
/// checked once, before the unboxed form runs (`UnboxedGetter.runs`): `self`
/// is alive, and the deepest inlined getter is within `--max-depth`. When it
/// would not be, the boxed form runs and reports the error exactly where it
/// would have. Both forms give the same value.
///
/// Int literals are promoted only when the other operand is a Double, as the
/// boxed operators do; anything Int-valued (`count / 2` truncates) stays on
/// the boxed path.
typealias SlotsEval = (KVOObject) throws(NotADouble) -> Double

/// Thrown by an unboxed read that finds something other than a Double in its
/// slot; the getter then runs its boxed form. Stores into a `Double`
/// property convert Ints and refuse the rest, so this is a safety net.
struct NotADouble: Error {}

/// The unboxed form of a getter body.
struct UnboxedGetter {
    let eval: SlotsEval
    /// How many getters deep the inlined bodies go: 0 when the body reads
    /// only stored properties.
    let depth: Int

    /// Inlining stops here, so the native stack an unboxed body needs stays
    /// small next to `StackGuard`'s margin; deeper getters stay boxed.
    static let maxDepth = 8

    /// Whether the unboxed form may run in place of a body that starts at
    /// `callDepth` (already counting this getter): every getter it inlines
    /// would pass the depth check, at `callDepth`, `callDepth + 1`, ….
    @inline(__always)
    func runs(atCallDepth callDepth: Int, maxDepth: Int) -> Bool {
        callDepth + depth <= maxDepth
    }
}

extension Compiler {
    /// Deepest expression given an unboxed form: it is compiled recursively,
    /// and an operator chain can be as long as the source allows.
    static let maxUnboxedNesting = 64

    /// The unboxed form of `expr`, when it has one (see above).
    func compileUnboxed(_ expr: Expr, nesting: Int = 0) -> UnboxedGetter? {
        guard nesting < Self.maxUnboxedNesting else { return nil }
        let compileUnboxed = { (inner: Expr) in self.compileUnboxed(inner, nesting: nesting + 1) }
        switch expr {
        case .identifier, .member:
            return selfDoubleRead(expr)
        case .unary("-", let operand, _):
            guard let inner = compileUnboxed(operand) else { return nil }
            let eval = inner.eval
            return UnboxedGetter(eval: { object throws(NotADouble) in -(try eval(object)) }, depth: inner.depth)
        case .binary(let op, let lhs, let rhs, _):
            guard ["+", "-", "*", "/"].contains(op) else { return nil }
            switch (numericLiteral(lhs), numericLiteral(rhs)) {
            case (nil, let constant?):
                if let slot = selfDoubleSlot(lhs) {
                    // `lComponent + 16`: the slot is read here.
                    return UnboxedGetter(eval: Self.double(op, slot: slot, constant), depth: 0)
                }
                guard let left = compileUnboxed(lhs) else { return nil }
                return UnboxedGetter(eval: Self.double(op, left.eval, constant), depth: left.depth)
            case (let constant?, nil):
                guard let right = compileUnboxed(rhs) else { return nil }
                return UnboxedGetter(eval: Self.double(op, constant, right.eval), depth: right.depth)
            case (nil, nil):
                guard let left = compileUnboxed(lhs), let right = compileUnboxed(rhs) else { return nil }
                return UnboxedGetter(eval: Self.double(op, left.eval, right.eval), depth: max(left.depth, right.depth))
            case (_?, _?):
                return nil
            }
        default:
            return nil
        }
    }

    /// `expr` evaluated unboxed when it has an unboxed form, boxed
    /// otherwise: for the pieces of an interpolation in an accessor or method
    /// (`"rgb(\(redComponent / 100), …)"` in LabColor's `color`), where the
    /// boxed form reads each getter through `ownGetter` and an operator
    /// closure. What the boxed form checks at each read is checked first, as
    /// the getters' own unboxed forms do: the depth limit for the getters it
    /// inlines, `self` alive (an earlier piece may have released it), and the
    /// native stack when it inlines a getter. When one of them would fail, or
    /// a slot holds something other than a Double, the boxed form runs and
    /// fails (or answers) exactly as before.
    func compileUnboxedOrBoxed(_ expr: Expr) -> Eval {
        let boxed = compileExpr(expr).eval
        guard function?.cls != nil, function?.isStatic == false, let unboxed = compileUnboxed(expr) else {
            return boxed
        }
        let run = unboxed.eval
        let readsGetters = unboxed.depth > 0
        return { machine in
            if unboxed.runs(atCallDepth: machine.callDepth, maxDepth: machine.kvo.maxDepth),
                let value = try? machine.withSelf({ object -> Double? in
                    guard !object.isReleased else { return nil }
                    if readsGetters { try machine.kvo.stackGuard.check("accessor calls") }
                    return try run(object)
                })
            {
                return .double(value)
            }
            return try boxed(machine)
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

    /// A Double property of `self` that `expr` reads: a slot, or the inlined
    /// body of a getter compiled before this one.
    private func selfDoubleRead(_ expr: Expr) -> UnboxedGetter? {
        guard let property = selfProperty(expr) else { return nil }
        if let slot = Self.doubleSlot(property) {
            return UnboxedGetter(eval: { object throws(NotADouble) in try Self.slotDouble(object, slot) }, depth: 0)
        }
        guard let getter = getterBodies[ObjectIdentifier(property)], let body = getter.unboxed,
            body.depth < UnboxedGetter.maxDepth
        else { return nil }
        return UnboxedGetter(eval: body.eval, depth: body.depth + 1)
    }

    /// The Double in `slot`.
    @inline(__always)
    private static func slotDouble(_ object: KVOObject, _ slot: Int) throws(NotADouble) -> Double {
        guard case .double(let value) = object[slot: slot] else { throw NotADouble() }
        return value
    }

    private static func double(_ op: String, slot: Int, _ right: Double) -> SlotsEval {
        switch op {
        case "+": return { object throws(NotADouble) in try slotDouble(object, slot) + right }
        case "-": return { object throws(NotADouble) in try slotDouble(object, slot) - right }
        case "*": return { object throws(NotADouble) in try slotDouble(object, slot) * right }
        default: return { object throws(NotADouble) in try slotDouble(object, slot) / right }
        }
    }

    private static func double(_ op: String, _ left: @escaping SlotsEval, _ right: @escaping SlotsEval) -> SlotsEval {
        switch op {
        case "+": return { object throws(NotADouble) in try left(object) + right(object) }
        case "-": return { object throws(NotADouble) in try left(object) - right(object) }
        case "*": return { object throws(NotADouble) in try left(object) * right(object) }
        default: return { object throws(NotADouble) in try left(object) / right(object) }
        }
    }

    private static func double(_ op: String, _ left: @escaping SlotsEval, _ right: Double) -> SlotsEval {
        switch op {
        case "+": return { object throws(NotADouble) in try left(object) + right }
        case "-": return { object throws(NotADouble) in try left(object) - right }
        case "*": return { object throws(NotADouble) in try left(object) * right }
        default: return { object throws(NotADouble) in try left(object) / right }
        }
    }

    private static func double(_ op: String, _ left: Double, _ right: @escaping SlotsEval) -> SlotsEval {
        switch op {
        case "+": return { object throws(NotADouble) in left + (try right(object)) }
        case "-": return { object throws(NotADouble) in left - (try right(object)) }
        case "*": return { object throws(NotADouble) in left * (try right(object)) }
        default: return { object throws(NotADouble) in left / (try right(object)) }
        }
    }
}
