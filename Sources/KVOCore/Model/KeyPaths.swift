/// Key-path strings.
public enum KeyPaths {
    /// The components of `path` split at dots, empty ones kept. Scans UTF-8
    /// directly: the generic `split` costs thousands of instructions a call.
    public static func components(_ path: String) -> [String] {
        var result: [String] = []
        let utf8 = path.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: ".") {
                result.append(String(path[start..<index]))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        result.append(String(path[start..<index]))
        return result
    }

    /// `<Key>` in KVC's accessor names: the key with its first letter
    /// uppercased (`level` → `Level`, as `getLevel`, `setLevel:`).
    public static func capitalized(_ key: String) -> String {
        guard let first = key.unicodeScalars.first, ("a"..."z").contains(first) else { return key }
        return String(first).uppercased() + String(key.unicodeScalars.dropFirst())
    }

    /// The key a setter method sets: `setColor` → `color`, `setURL` → `URL`
    /// (a name that goes on in capitals keeps them); nil for a name not of
    /// the form `set<Key>`.
    public static func keySet(byMethod name: String) -> String? {
        let scalars = name.unicodeScalars
        guard scalars.count > 3, name.hasPrefix("set") else { return nil }
        let rest = scalars.dropFirst(3)
        guard let first = rest.first, ("A"..."Z").contains(first) else { return nil }
        if let second = rest.dropFirst().first, ("A"..."Z").contains(second) { return String(rest) }
        return String(first).lowercased() + String(rest.dropFirst())
    }

    /// The collection operators NSArray and NSSet implement.
    public static let operators: Set<String> = [
        "@count", "@sum", "@avg", "@max", "@min", "@unionOfObjects", "@distinctUnionOfObjects",
        "@unionOfArrays", "@distinctUnionOfArrays", "@distinctUnionOfSets",
    ]

    /// `@count`, `@sum`…: a collection operator. `hasPrefix` is generic over
    /// Unicode and costs far more than this on every key of every path read.
    @inline(__always)
    public static func isOperator(_ key: String) -> Bool {
        key.utf8.first == UInt8(ascii: "@")
    }

    /// The rest of a path is one operator (`@count`): what an observed
    /// object keeps for itself rather than forwarding to a collection.
    public static func isLoneOperator(_ rest: ArraySlice<String>) -> Bool {
        rest.count == 1 && isOperator(rest[rest.startIndex])
    }
}
