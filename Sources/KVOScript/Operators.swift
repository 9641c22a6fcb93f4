import KVOCore

/// The language's operators on values: Swift's rules, with Int and Double
/// mixing by promotion, and overflow and division by zero as runtime errors.
enum Operators {
    typealias Binary = (Value, Value) throws -> Value

    /// The implementation of a binary operator, chosen once at compile time.
    static func binary(_ op: String) -> Binary? {
        guard let general = generalBinary(op) else { return nil }
        // Int on both sides is the common case (loop counters): answer it
        // without going through Double or the general dispatch.
        // Doubles, or a Double and an Int, likewise (computed properties such as
        // LabColor's compute in Double).
        switch op {
        case "+": return {
            if case .int(let a) = $0, case .int(let b) = $1 { let (r, o) = a.addingReportingOverflow(b); if !o { return .int(r) } }
            if let (a, b) = doubles($0, $1) { return .double(a + b) }
            return try general($0, $1)
        }
        case "-": return {
            if case .int(let a) = $0, case .int(let b) = $1 { let (r, o) = a.subtractingReportingOverflow(b); if !o { return .int(r) } }
            if let (a, b) = doubles($0, $1) { return .double(a - b) }
            return try general($0, $1)
        }
        case "*": return {
            if case .int(let a) = $0, case .int(let b) = $1 { let (r, o) = a.multipliedReportingOverflow(by: b); if !o { return .int(r) } }
            if let (a, b) = doubles($0, $1) { return .double(a * b) }
            return try general($0, $1)
        }
        case "<": return { if case .int(let a) = $0, case .int(let b) = $1 { return .bool(a < b) }; return try general($0, $1) }
        case "<=": return { if case .int(let a) = $0, case .int(let b) = $1 { return .bool(a <= b) }; return try general($0, $1) }
        case ">": return { if case .int(let a) = $0, case .int(let b) = $1 { return .bool(a > b) }; return try general($0, $1) }
        case ">=": return { if case .int(let a) = $0, case .int(let b) = $1 { return .bool(a >= b) }; return try general($0, $1) }
        case "==": return { if case .int(let a) = $0, case .int(let b) = $1 { return .bool(a == b) }; return try general($0, $1) }
        case "!=": return { if case .int(let a) = $0, case .int(let b) = $1 { return .bool(a != b) }; return try general($0, $1) }
        default: return general
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

    private static func generalBinary(_ op: String) -> Binary? {
        switch op {
        case "+": return add
        case "-": return { try arithmetic("-", $0, $1, { $0.subtractingReportingOverflow($1) }, -) }
        case "*": return { try arithmetic("*", $0, $1, { $0.multipliedReportingOverflow(by: $1) }, *) }
        case "/": return divide
        case "%": return remainder
        case "==": return { .bool($0 == $1) }
        case "!=": return { .bool($0 != $1) }
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
            throw ScriptError.runtime("string of \(count) bytes is larger than the limit of \(maxStringBytes) bytes")
        }
    }

    static func checkSize(array count: Int) throws {
        if count > maxArrayCount {
            throw ScriptError.runtime("array of \(count) elements is larger than the limit of \(maxArrayCount) elements")
        }
    }

    static func add(_ lhs: Value, _ rhs: Value) throws -> Value {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)):
            try checkSize(string: a.utf8.count + b.utf8.count)
            return .string(a + b)
        case (.array(let a), .array(let b)):
            try checkSize(array: a.count + b.count)
            return .array(a + b)
        default: return try arithmetic("+", lhs, rhs, { $0.addingReportingOverflow($1) }, +)
        }
    }

    private static func arithmetic(_ op: String, _ lhs: Value, _ rhs: Value,
                                   _ intOp: (Int, Int) -> (partialValue: Int, overflow: Bool),
                                   _ doubleOp: (Double, Double) -> Double) throws -> Value {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            let (result, overflow) = intOp(a, b)
            if overflow { throw ScriptError.runtime("arithmetic overflow: \(a) \(op) \(b) does not fit in Int") }
            return .int(result)
        case (.int, .double), (.double, .int), (.double, .double):
            return .double(doubleOp(lhs.number ?? 0, rhs.number ?? 0))
        default:
            throw ScriptError.runtime("binary operator '\(op)' cannot be applied to \(lhs.typeName) and \(rhs.typeName)")
        }
    }

    static func divide(_ lhs: Value, _ rhs: Value) throws -> Value {
        if case .int(let a) = lhs, case .int(let b) = rhs {
            if b == 0 { throw ScriptError.runtime("division by zero") }
            let (result, overflow) = a.dividedReportingOverflow(by: b)
            if overflow { throw ScriptError.runtime("arithmetic overflow: \(a) / \(b) does not fit in Int") }
            return .int(result)
        }
        return try arithmetic("/", lhs, rhs, { $0.dividedReportingOverflow(by: $1) }, /)
    }

    static func remainder(_ lhs: Value, _ rhs: Value) throws -> Value {
        guard case .int(let a) = lhs, case .int(let b) = rhs else {
            throw ScriptError.runtime("binary operator '%' needs two Ints, got \(lhs.typeName) and \(rhs.typeName)")
        }
        if b == 0 { throw ScriptError.runtime("division by zero in remainder") }
        let (result, overflow) = a.remainderReportingOverflow(dividingBy: b)
        if overflow { throw ScriptError.runtime("arithmetic overflow: \(a) % \(b)") }
        return .int(result)
    }

    static func less(_ lhs: Value, _ rhs: Value, _ op: String) throws -> Bool {
        guard let result = Value.compare(lhs, rhs) else {
            throw ScriptError.runtime("binary operator '\(op)' cannot compare \(lhs.typeName) and \(rhs.typeName)")
        }
        return result
    }

    static func negate(_ value: Value) throws -> Value {
        switch value {
        case .int(let a):
            let (result, overflow) = Int(0).subtractingReportingOverflow(a)
            if overflow { throw ScriptError.runtime("arithmetic overflow: -(\(a)) does not fit in Int") }
            return .int(result)
        case .double(let a): return .double(-a)
        default: throw ScriptError.runtime("unary operator '-' cannot be applied to \(value.typeName)")
        }
    }

    /// Conditions must be Bool, as in Swift.
    static func truth(_ value: Value) throws -> Bool {
        guard case .bool(let flag) = value else {
            throw ScriptError.runtime("a condition must be a Bool, got \(value.typeName) \(value.collectionDescription)")
        }
        return flag
    }
}
