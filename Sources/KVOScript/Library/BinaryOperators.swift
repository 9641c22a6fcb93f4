/// The binary operators the language has (`Operators.general` in `Run/`
/// implements each): the checker rejects any other, and a compound
/// assignment (`+=`) must be one of them followed by `=`.
enum BinaryOperators {
    static let all: Set<String> = ["+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">="]

    static func contains(_ op: String) -> Bool { all.contains(op) }
}
