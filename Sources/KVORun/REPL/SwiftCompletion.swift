import KVOOutput
import KVOScript

/// Tab completion in a Swift session (SPEC §10.1): what the accepted
/// entries declare (the rewriter's reading), the objects the last run held
/// and their classes' properties (the runtime's), Swift's keywords and the
/// Foundation KVO words the scenario REPL offers, in Swift's spellings.
struct SwiftCompletion: CompletionSource {
    let snapshot: SwiftREPLSnapshot

    /// Swift's words a REPL line starts with, and KVO's own: the NSObject
    /// methods a class overrides or calls on itself (`willChangeValue(forKey: `
    /// in a setter), Foundation's KVO types and `#keyPath(`.
    static let keywords = [
        "let", "var", "func", "class", "struct", "enum", "protocol", "extension", "init", "deinit", "if", "else",
        "guard", "for", "in", "while", "repeat", "switch", "case", "default", "break", "continue", "return", "do",
        "try", "catch", "throw", "throws", "defer", "import", "self", "super", "nil", "true", "false", "override",
        "final", "private", "static", "lazy", "weak", "dynamic", "print", "dump", "release", "NSObject",
        "NSKeyValueObservation", "NSKeyValueObservingOptions", "NSKeyValueChangeKey", "NSKeyValueChange",
        "Progress", "Operation", "BlockOperation", "OperationQueue", "UserDefaults", "#keyPath(",
        "willChangeValue(forKey: ", "didChangeValue(forKey: ", "willChangeValue(for: \\.",
        "didChangeValue(for: \\.", "observeValue(forKeyPath ", "automaticallyNotifiesObservers(forKey ",
        "keyPathsForValuesAffectingValue(forKey ",
    ]

    /// What an NSObject answers after `o.`, in Swift's spellings: the
    /// scenario's Foundation methods and Swift's own ways in (`observe(\.`,
    /// key-path `willChangeValue(for:)`).
    static let objectMembers =
        Session.foundationMethodCompletions + [
            "observe(\\.", "observationInfo", "willChangeValue(for: \\.", "didChangeValue(for: \\.",
            "setValuesForKeys(", "dictionaryWithValues(forKeys: ",
        ]

    var words: [String] {
        Self.keywords + snapshot.declarations.names + (snapshot.state?.objects.map(\.name) ?? [])
    }

    var objectNames: [String] { snapshot.state?.objects.map(\.name) ?? [] }

    func members(ofVariable name: String) -> [String] {
        guard let type = snapshot.typeName(ofVariable: name) else { return [] }
        var members: [String] = []
        // The program's own members (methods, and properties of any type),
        // up its classes' declared superclasses.
        var next: String? = type
        var seen: Set<String> = []
        while let current = next, seen.insert(current).inserted {
            members += snapshot.declarations.members[current] ?? []
            next = snapshot.declarations.superclasses[current]
        }
        guard snapshot.cls(named: type) != nil else { return members }
        let properties = snapshot.properties(of: type).map(\.name)
        // A Foundation class's table has the Objective-C name of a property
        // beside the Swift one (`finished` beside `isFinished`): Swift code
        // names the one that starts with `is`.
        let swiftNames = properties.filter { property in
            guard let first = property.first else { return false }
            return !properties.contains("is" + first.uppercased() + property.dropFirst())
        }
        return members + swiftNames + Self.objectMembers
    }

    func keyPathCompletions(ofVariable name: String, partial: String, swift: Bool) -> [String] {
        guard var type = snapshot.state?.objects.first(where: { $0.name == name })?.className else { return [] }
        var components = partial.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = components.removeLast()
        for key in components {
            // A Swift key path goes through an optional with `?`.
            let plain = swift && (key.hasSuffix("?") || key.hasSuffix("!")) ? String(key.dropLast()) : key
            guard let property = snapshot.properties(of: type).first(where: { $0.objc && $0.name == plain }),
                let next = Self.className(property.type), snapshot.cls(named: next) != nil
            else { return [] }
            type = next
        }
        let prefix = components.isEmpty ? "" : components.joined(separator: ".") + "."
        return snapshot.properties(of: type).filter { $0.objc && $0.name.hasPrefix(last) }.map { property in
            guard let held = Self.className(property.type), snapshot.cls(named: held) != nil else {
                return prefix + property.name
            }
            // A to-one relationship: the path goes on.
            return prefix + property.name + (swift && property.type.hasSuffix("?") ? "?." : ".")
        }.sorted()
    }

    /// The class an object-typed property holds: `Account` for `Account`,
    /// `Account?` and `Account!`; nil for a collection or a function.
    static func className(_ type: String) -> String? {
        var name = Substring(type)
        if name.hasSuffix("?") || name.hasSuffix("!") { name = name.dropLast() }
        guard let first = name.first, first.isLetter || first == "_",
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
        else { return nil }
        return String(name)
    }
}
