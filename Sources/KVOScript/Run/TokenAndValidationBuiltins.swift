import KVOCore

/// Methods spelled as in Swift that the scenario language has: an `observe`
/// token's `invalidate()` (SPEC §11.2), key-value validation and the string
/// methods a `validate<Key>` method needs (§11.5).
extension Builtins {
    nonisolated(unsafe) static let tokenAndValidationTable: [String: Implementation] = [
        "invalidate()": { m, r, _ in
            m.invalidate(r, released: false)
            return .null
        },
        "validateValue(_:forKey:)": { m, r, a in try validate(m, r, a[0], key: try string(a[1], "key")) },
        "validateValue(_:forKeyPath:)": { m, r, a in
            var path = KeyPaths.components(try string(a[1], "key path"))
            let last = path.removeLast()
            var target = r
            for key in path { target = try m.kvo.value(of: target, forKey: key) }
            return try validate(m, target, a[0], key: last)
        },
        "trimmingCharacters(in:)": { _, r, a in
            let text = try string(r, "receiver")
            let newlines = (try? string(a[0], "set")) != "whitespaces"
            func trimmed(_ c: Character) -> Bool { c == " " || c == "\t" || (newlines && c.isNewline) }
            let start = text.firstIndex { !trimmed($0) } ?? text.endIndex
            let end = text.lastIndex { !trimmed($0) }.map { text.index(after: $0) } ?? start
            return .string(start < end ? String(text[start..<end]) : "")
        },
        "uppercased()": { _, r, _ in .string(try string(r, "receiver").uppercased()) },
        "lowercased()": { _, r, _ in .string(try string(r, "receiver").lowercased()) },
        "hasPrefix(_:)": { _, r, a in .bool(try string(r, "receiver").hasPrefix(try string(a[0], "prefix"))) },
        "hasSuffix(_:)": { _, r, a in .bool(try string(r, "receiver").hasSuffix(try string(a[0], "suffix"))) },
    ]

    /// `validateValue(_:forKey:)`: the class's `validate<Key>` decides, and
    /// returns the value to use; without one the value is valid as it is.
    /// Nothing is stored.
    static func validate(_ machine: Machine, _ receiver: Value, _ value: Value, key: String) throws -> Value {
        let object = try alive(machine, receiver)
        guard let first = key.first else { return value }
        let name = "validate" + first.uppercased() + key.dropFirst()
        guard let box = machine.method(of: object, name), box.parameters.count == 1 else { return value }
        return try machine.invoke(box, selfObject: object, arguments: [value])
    }
}
