/// The signatures of the Foundation methods, collection-proxy methods and
/// Swift methods the language has (docs/language.md#foundation-api), as
/// Swift spells them (`addObserver(_:forKeyPath:options:context:)`), so
/// argument labels are checked when the scenario is checked. What each one
/// does is `Builtins.table` in `Run/`, keyed by these same signatures (a test
/// holds the two to one set).
enum BuiltinSignatures {
    static let all: Set<String> = [
        // KVC
        "value(forKey:)", "value(forKeyPath:)", "setValue(_:forKey:)", "setValue(_:forKeyPath:)",
        // Registration
        "addObserver(_:forKeyPath:options:context:)", "addObserver(_:forKeyPath:options:)",
        "addObserver(_:forKeyPath:context:)", "addObserver(_:forKeyPath:)",
        "removeObserver(_:forKeyPath:context:)", "removeObserver(_:forKeyPath:)",
        // Manual notification
        "willChangeValue(forKey:)", "didChangeValue(forKey:)", "willChange(_:valuesAt:forKey:)",
        "didChange(_:valuesAt:forKey:)", "willChangeValue(forKey:withSetMutation:using:)",
        "didChangeValue(forKey:withSetMutation:using:)",
        // Proxies
        "mutableArrayValue(forKey:)", "mutableArrayValue(forKeyPath:)", "mutableSetValue(forKey:)",
        "mutableSetValue(forKeyPath:)", "add(_:)", "insert(_:at:)", "removeObject(at:)", "removeObjects(at:)",
        "removeLastObject()", "remove(_:)", "removeAllObjects()", "replaceObject(at:with:)", "union(_:)",
        "minus(_:)", "intersect(_:)", "setSet(_:)",
        // Collections
        "contains(_:)", "object(at:)",
        // An `observe` token, validation, and the string methods validation needs
        "invalidate()", "validateValue(_:forKey:)", "validateValue(_:forKeyPath:)", "trimmingCharacters(in:)",
        "uppercased()", "lowercased()", "hasPrefix(_:)", "hasSuffix(_:)",
    ]

    /// The method names alone (`addObserver`).
    static let names: Set<String> = Set(all.map { String($0.prefix { $0 != "(" }) })

    /// Appended piece by piece: `labels.map { $0 + ":" }.joined()` went
    /// through the unspecialized generic `joined()` (its associated-type
    /// lookups), a tenth of an empty scenario's start-up.
    static func signature(_ name: String, _ labels: [String]) -> String {
        var text = name
        text.append("(")
        for label in labels {
            text.append(label)
            text.append(":")
        }
        text.append(")")
        return text
    }

    /// Every signature of the method `name`, sorted: what a call with the
    /// wrong labels is told to write.
    static func signatures(named name: String) -> [String] {
        all.filter { $0.hasPrefix(name + "(") }.sorted()
    }
}
