import KVOCore

/// Computed properties whose value depends only on their object's own
/// stored scalar properties: their getter runs no code of the scenario but
/// arithmetic, comparisons and interpolation over such properties, other
/// such computed properties of `self` and literals. Calling one twice with
/// no store into the object between returns the same value, so an observed
/// object keeps its last value (`DerivedValues`) and a read at the next
/// change's will time returns it without running the body again (B5s's
/// color: its `.old` is the value its `.new` was at the set before).
///
/// Only a body that builds text (an interpolation, here or in a computed
/// property it reads) is worth keeping: keeping and finding a value costs
/// more than a few unboxed Double operations (B5's components), and less
/// than writing numbers into a String (B5s's color).
///
/// Anything else is not pure here: a global (it may change between two
/// reads), another object's property, a call, a subscript, a cast, a
/// stored String or object (KVC may store any object into one, and
/// printing an object may run its class's code), an `_ivar` read.
struct Purity {
    /// Whether the body, or a computed property it reads, interpolates.
    var buildsText: Bool

    /// Both parts pure; building text if either does.
    static func both(_ lhs: Purity?, _ rhs: Purity?) -> Purity? {
        guard let lhs, let rhs else { return nil }
        return Purity(buildsText: lhs.buildsText || rhs.buildsText)
    }
}

extension Compiler {
    /// Whether a computed property's getter is pure (nil when not), and
    /// whether it builds text.
    func purity(of getter: GetterBody) -> Purity? {
        var visiting: Set<ObjectIdentifier> = []
        return purity(of: getter, visiting: &visiting)
    }

    /// How many computed properties deep a pure body may read: past it the
    /// answer is no, so that a chain of thousands of properties is neither
    /// walked recursively that deep nor once per property (the answers are
    /// kept in `GetterBody.purity`).
    private static let maxReadDepth = 32

    /// nil when `expr` is not pure.
    private func purity(of expr: Expr, in cls: ScriptClass, visiting: inout Set<ObjectIdentifier>) -> Purity? {
        let plain = Purity(buildsText: false)
        switch expr {
        case .literal(let value, _):
            switch value {
            case .null, .bool, .int, .double, .string: return plain
            default: return nil
            }
        case .interpolation(let parts, _):
            var result: Purity? = Purity(buildsText: true)
            for case .expr(let inner) in parts {
                result = .both(result, purity(of: inner, in: cls, visiting: &visiting))
            }
            return result
        case .identifier(let name, let location, _):
            guard binding(at: location) == nil else { return nil }
            return purity(ofReading: name, in: cls, visiting: &visiting)
        case .member(.selfRef, let name, _):
            return purity(ofReading: name, in: cls, visiting: &visiting)
        case .unary(let op, let operand, _):
            guard op == "-" || op == "!" else { return nil }
            return purity(of: operand, in: cls, visiting: &visiting)
        case .binary(let op, let lhs, let rhs, _):
            guard Self.pureOperators.contains(op) else { return nil }
            return .both(purity(of: lhs, in: cls, visiting: &visiting), purity(of: rhs, in: cls, visiting: &visiting))
        case .forceUnwrap(let inner, _):
            return purity(of: inner, in: cls, visiting: &visiting)
        default:
            return nil
        }
    }

    /// Operators that, on numbers, Booleans and strings, run no code of the
    /// scenario.
    private static let pureOperators: Set<String> = [
        "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||",
    ]

    /// A read of `self`'s property `name`, resolved as the compiled body
    /// resolves it (`compileIdentifier`): a stored Int, Double or Bool, or
    /// a computed property of `self` whose own body is pure.
    private func purity(
        ofReading name: String, in cls: ScriptClass, visiting: inout Set<ObjectIdentifier>
    )
        -> Purity?
    {
        guard !name.hasPrefix("_"), let property = cls.info.property(named: name) else { return nil }
        if let getter = getterBodies[ObjectIdentifier(property)] { return purity(of: getter, visiting: &visiting) }
        if case .stored = property.storage, property.type.isScalar { return Purity(buildsText: false) }
        return nil
    }

    /// A getter's purity, from `GetterBody.purity` once known.
    private func purity(of getter: GetterBody, visiting: inout Set<ObjectIdentifier>) -> Purity? {
        if let known = getter.purity { return known }
        guard visiting.count < Self.maxReadDepth, visiting.insert(ObjectIdentifier(getter)).inserted else {
            return nil
        }
        defer { visiting.remove(ObjectIdentifier(getter)) }
        let found = purity(of: getter.computed, in: getter.cls, visiting: &visiting)
        // A pure body is pure from wherever the walk starts; an impure
        // answer may come from a cycle or the depth met on the way.
        if found != nil { getter.purity = found }
        return found
    }

    /// `getter`, keeping its value in an observed object's `DerivedValues`
    /// and returning the kept value while nothing was stored into the
    /// object since. The body is not run then, but the checks a call makes
    /// are (too deep, a released object), so that they fail as a call would.
    static func remembering(
        _ getter: @escaping (KVOObject) throws -> Value, _ property: PropertyInfo, name: String, machine: MachineRef
    ) -> (KVOObject) throws -> Value {
        let key = ObjectIdentifier(property)
        return { object in
            guard let info = object.observationInfo else { return try getter(object) }
            if let value = info.derivedValue(for: key) {
                try machine { try $0.checkAccessorCall(name, on: object) }
                return value
            }
            let value = try getter(object)
            // The body stores nothing and observes nothing: the info and
            // the version it was computed at are the current ones.
            info.keepDerived(value, for: key)
            return value
        }
    }
}
