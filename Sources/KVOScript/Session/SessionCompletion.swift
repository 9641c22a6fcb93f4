/// Completions the REPL offers that come from the language itself.
extension Session {
    /// NSObject's methods every object answers (the proxies' own methods aside).
    static let objectMethodNames: Set<String> = [
        "value", "setValue", "addObserver", "removeObserver", "willChangeValue", "didChangeValue",
        "willChange", "didChange", "mutableArrayValue", "mutableSetValue", "validateValue", "observe",
    ]

    /// The Foundation methods after `object.`, with the label of their first
    /// argument when it has one: `addObserver(`, `value(forKey: `, `value(forKeyPath: `.
    public static var foundationMethodCompletions: [String] {
        var result: Set<String> = []
        for signature in BuiltinSignatures.all {
            let name = String(signature.prefix { $0 != "(" })
            guard objectMethodNames.contains(name) else { continue }
            let labels = signature.dropFirst(name.count + 1).split(separator: ":").map(String.init)
            guard let first = labels.first, first != ")" else {
                result.insert(name + "()")
                continue
            }
            result.insert(first == "_" ? name + "(" : name + "(" + first + ": ")
        }
        return result.sorted()
    }

    /// The leading-dot literals: options, change kinds and set mutations.
    public static let dotLiterals = [
        ".new", ".old", ".initial", ".prior", ".setting", ".insertion", ".removal",
        ".replacement", ".union", ".minus", ".intersect", ".set",
    ]
}
