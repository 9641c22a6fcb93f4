import KVOCore

/// The language's operators on values: Swift's rules, with Int and Double
/// mixing by promotion, and overflow and division by zero as runtime errors.
enum Operators {
    typealias Binary = (Value, Value) throws -> Value

    /// The implementation of a binary operator, chosen once at compile time:
    /// the fast path, then the general rules.
    static func binary(_ op: String, meter: WorkMeter) -> Binary? {
        guard let general = general(op, meter: meter) else { return nil }
        guard let fast = FastPath(op) else { return general }
        return { try fast.apply($0, $1) ?? general($0, $1) }
    }

    /// `function(lhs, rhs)`, trying `fast` first; a runtime failure points at
    /// the operator's location, not the statement's.
    @inline(__always)
    static func apply(
        _ fast: FastPath?, _ function: Binary, _ lhs: Value, _ rhs: Value,
        at location: SourceLocation
    ) throws -> Value {
        if let fast, let result = fast.apply(lhs, rhs) { return result }
        do {
            return try function(lhs, rhs)
        } catch ScriptError.runtime(var failure) where failure.line == nil {
            failure.line = location.line
            failure.column = location.column
            throw ScriptError.runtime(failure)
        }
    }

    /// The common cases of the arithmetic and comparison operators: Int on both
    /// sides (loop counters), or Doubles and Ints mixed (computed properties
    /// such as LabColor's compute in Double). The compiler inlines `apply` into
    /// each operator's closure; nil means "take the general path", which also
    /// reports overflow.
    enum FastPath {
        case add, subtract, multiply, divide, remainder, less, lessOrEqual, greater, greaterOrEqual, equal, notEqual

        init?(_ op: String) {
            switch op {
            case "+": self = .add
            case "-": self = .subtract
            case "*": self = .multiply
            case "/": self = .divide
            case "%": self = .remainder
            case "<": self = .less
            case "<=": self = .lessOrEqual
            case ">": self = .greater
            case ">=": self = .greaterOrEqual
            case "==": self = .equal
            case "!=": self = .notEqual
            default: return nil
            }
        }

        @inline(__always)
        func apply(_ lhs: Value, _ rhs: Value) -> Value? {
            if case .int(let a) = lhs, case .int(let b) = rhs {
                switch self {
                case .add: return IntArithmetic.add.apply(a, b).map(Value.int)
                case .subtract: return IntArithmetic.subtract.apply(a, b).map(Value.int)
                case .multiply: return IntArithmetic.multiply.apply(a, b).map(Value.int)
                // Division by zero and Int.min / -1 are errors: the general path reports them.
                case .divide:
                    let (r, o) = a.dividedReportingOverflow(by: b)
                    return o ? nil : .int(r)
                case .remainder:
                    let (r, o) = a.remainderReportingOverflow(dividingBy: b)
                    return o ? nil : .int(r)
                case .less: return .bool(a < b)
                case .lessOrEqual: return .bool(a <= b)
                case .greater: return .bool(a > b)
                case .greaterOrEqual: return .bool(a >= b)
                case .equal: return .bool(a == b)
                case .notEqual: return .bool(a != b)
                }
            }
            switch self {
            case .add: if let (a, b) = doubles(lhs, rhs) { return .double(a + b) }
            case .subtract: if let (a, b) = doubles(lhs, rhs) { return .double(a - b) }
            case .multiply: if let (a, b) = doubles(lhs, rhs) { return .double(a * b) }
            case .divide: if let (a, b) = doubles(lhs, rhs) { return .double(a / b) }
            default: break
            }
            return nil
        }
    }

    /// Both operands as Doubles, when one is a Double and the other a number:
    /// the promotion `arithmetic` applies.
    @inline(__always)
    private static func doubles(_ lhs: Value, _ rhs: Value) -> (Double, Double)? {
        switch (lhs, rhs) {
        case (.double(let a), .double(let b)): return (a, b)
        case (.double(let a), .int(let b)): return (a, Double(b))
        case (.int(let a), .double(let b)): return (Double(a), b)
        default: return nil
        }
    }

    /// A binary operator by the general rules alone (see `FastPath`).
    /// `meter` counts the work of comparing large values against the limits.
    static func general(_ op: String, meter: WorkMeter) -> Binary? {
        switch op {
        case "+": return { try add($0, $1, meter: meter) }
        case "-": return { try arithmetic("-", $0, $1, { $0.subtractingReportingOverflow($1) }, -) }
        case "*": return { try arithmetic("*", $0, $1, { $0.multipliedReportingOverflow(by: $1) }, *) }
        case "/": return divide
        case "%": return remainder
        case "==": return { .bool(try Value.equal($0, $1, meter: meter)) }
        case "!=": return { .bool(!(try Value.equal($0, $1, meter: meter))) }
        case "<": return { try .bool(less($0, $1, "<")) }
        case ">": return { try .bool(less($1, $0, ">")) }
        case "<=": return { try .bool(!less($1, $0, "<=")) }
        case ">=": return { try .bool(!less($0, $1, ">=")) }
        default: return nil
        }
    }

    /// The largest string (in UTF-8 bytes) and array (in elements) a scenario
    /// may build: a few doublings would otherwise ask for terabytes and abort
    /// in the allocator instead of ending with an error.
    static let maxStringBytes = 1 << 26
    static let maxArrayCount = 1 << 24

    static func checkSize(string count: Int) throws {
        if count > maxStringBytes {
            throw ScriptError.runtime(.stringTooLarge(bytes: count, limit: maxStringBytes))
        }
    }

    static func checkSize(array count: Int) throws {
        if count > maxArrayCount {
            throw ScriptError.runtime(.arrayTooLarge(elements: count, limit: maxArrayCount))
        }
    }

    /// `print(a, b, …)`'s text: the descriptions joined by spaces, each
    /// added only once the total is known to stay within `maxStringBytes`
    /// (every description is capped, but a thousand capped ones are not).
    static func joinedDescriptions(_ values: [Value], meter: WorkMeter) throws -> String {
        if values.count == 1 { return try values[0].printDescription(meter: meter) }
        var text = ""
        for (index, value) in values.enumerated() {
            let part = try value.printDescription(meter: meter)
            let total = text.utf8.count + part.utf8.count + (index > 0 ? 1 : 0)
            if total > maxStringBytes {
                throw ScriptError.runtime(.printTooLarge(limit: maxStringBytes))
            }
            if index > 0 { text += " " }
            text += part
        }
        return text
    }

    /// `meter`, when given, is charged for what a concatenation copies (a
    /// 16M-element array, a 64 MiB string), one unit per element or per 64 bytes.
    static func add(_ lhs: Value, _ rhs: Value, meter: WorkMeter? = nil) throws -> Value {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)):
            let count = a.utf8.count + b.utf8.count
            try checkSize(string: count)
            try meter?.charge(count >> 6)
            return .string(a + b)
        case (.array(let a), .array(let b)):
            try checkSize(array: a.count + b.count)
            try meter?.charge(a.count + b.count)
            return .array(a + b)
        default: return try arithmetic("+", lhs, rhs, { $0.addingReportingOverflow($1) }, +)
        }
    }

    private static func arithmetic(
        _ op: String, _ lhs: Value, _ rhs: Value,
        _ intOp: (Int, Int) -> (partialValue: Int, overflow: Bool),
        _ doubleOp: (Double, Double) -> Double
    ) throws -> Value {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            let (result, overflow) = intOp(a, b)
            if overflow { throw ScriptError.runtime(.arithmeticOverflow(lhs: a, op: op, rhs: b)) }
            return .int(result)
        case (.int, .double), (.double, .int), (.double, .double):
            return .double(doubleOp(lhs.number ?? 0, rhs.number ?? 0))
        // A float or a decimal from KVC (`floatValue`, `@avg`) computes as a
        // Double, as `doubleValue` gives it.
        case (.float, _), (.decimal, _), (_, .float), (_, .decimal):
            guard let a = lhs.number, let b = rhs.number, lhs.isScalar, rhs.isScalar else { fallthrough }
            return .double(doubleOp(a, b))
        default:
            throw ScriptError.runtime(.binaryOperatorTypes(op: op, lhs: lhs.typeName, rhs: rhs.typeName))
        }
    }

    static func divide(_ lhs: Value, _ rhs: Value) throws -> Value {
        if case .int(let a) = lhs, case .int(let b) = rhs {
            if b == 0 { throw ScriptError.runtime(.divisionByZero) }
            let (result, overflow) = a.dividedReportingOverflow(by: b)
            if overflow { throw ScriptError.runtime(.arithmeticOverflow(lhs: a, op: "/", rhs: b)) }
            return .int(result)
        }
        return try arithmetic("/", lhs, rhs, { $0.dividedReportingOverflow(by: $1) }, /)
    }

    static func remainder(_ lhs: Value, _ rhs: Value) throws -> Value {
        guard case .int(let a) = lhs, case .int(let b) = rhs else {
            throw ScriptError.runtime(.remainderNeedsInts(lhs: lhs.typeName, rhs: rhs.typeName))
        }
        if b == 0 { throw ScriptError.runtime(.remainderByZero) }
        let (result, overflow) = a.remainderReportingOverflow(dividingBy: b)
        if overflow { throw ScriptError.runtime(.remainderOverflow(lhs: a, rhs: b)) }
        return .int(result)
    }

    static func less(_ lhs: Value, _ rhs: Value, _ op: String) throws -> Bool {
        guard let result = Value.compare(lhs, rhs) else {
            throw ScriptError.runtime(.cannotCompare(op: op, lhs: lhs.typeName, rhs: rhs.typeName))
        }
        return result
    }

    static func negate(_ value: Value) throws -> Value {
        switch value {
        case .int(let a):
            let (result, overflow) = Int(0).subtractingReportingOverflow(a)
            if overflow { throw ScriptError.runtime(.negationOverflow(a)) }
            return .int(result)
        case .double(let a): return .double(-a)
        case .float(let a): return .float(-a)
        case .decimal: return .double(-(value.number ?? 0))
        default: throw ScriptError.runtime(.unaryMinus(type: value.typeName))
        }
    }

    /// Conditions must be Bool, as in Swift.
    static func truth(_ value: Value) throws -> Bool {
        guard case .bool(let flag) = value else {
            throw ScriptError.runtime(.conditionNotBool(type: value.typeName, value: value.diagnosticDescription))
        }
        return flag
    }
}
