import KVOCore

extension Expr {
    /// The value of a literal (an array of literals too), known before
    /// anything runs: a stored property's initial value that every instance
    /// shares instead of evaluating it per instance. Nil for anything else.
    var constantValue: Value? {
        switch self {
        case .literal(let value, _): return value
        case .arrayLiteral(let elements, _):
            var values: [Value] = []
            for element in elements {
                guard let value = element.constantValue else { return nil }
                values.append(value)
            }
            return .array(values)
        default: return nil
        }
    }
}
