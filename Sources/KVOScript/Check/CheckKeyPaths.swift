import KVOCore

/// Key paths written as string literals, checked against the classes KVC
/// would search (SPEC §5, §9). Apple accepts a key no class has without a
/// word (an observer of it is never told), so a mistyped key is a warning
/// with a suggestion, never an error: the run goes on as on a Mac.
extension Checker {
    /// What a call does with a key it cannot find, as the warning ends.
    enum KeyUse {
        /// `addObserver` and `@affectedBy`: registered, never notified.
        case observed
        /// `removeObserver`: removes only an observance of the same text.
        case removed
        /// `value`, `setValue`, `mutableArrayValue`, `mutableSetValue`.
        case accessed

        /// What Apple raises when the call meets the unknown key, if anything.
        var exception: String? {
            switch self {
            case .observed: nil
            case .removed: "NSRangeException"
            case .accessed: "NSUnknownKeyException"
            }
        }

        var consequence: String {
            switch self {
            case .observed: "Apple registers it silently and never notifies"
            case .removed: "Apple removes only an observance registered with this same key path"
            case .accessed: "Apple raises NSUnknownKeyException when this runs"
            }
        }
    }

    /// The key argument of a KVC or KVO call on a receiver of class `cls`:
    /// `forKeyPath:` is walked key by key, `forKey:` is one key.
    func checkKeyArgument(of name: String, _ arguments: [Argument], on cls: ScriptClass) {
        let use: KeyUse
        switch name {
        case "addObserver": use = .observed
        case "removeObserver": use = .removed
        case "value", "setValue", "mutableArrayValue", "mutableSetValue": use = .accessed
        case "willChangeValue", "didChangeValue", "willChange", "didChange":
            for argument in arguments where argument.label == "forKey" {
                if case .literal(.string(let key), _) = argument.value { manuallyPostedKeys.insert(key) }
            }
            return
        default: return
        }
        // Inside `do { … } catch` of the exception the call raises for an
        // unknown key, that exception is what the scenario is after (SPEC
        // §7's examples): NSUnknownKeyException from KVC, NSRangeException
        // from removing an observance never registered.
        if let raised = use.exception, catching[raised, default: 0] > 0 || catching["", default: 0] > 0 { return }
        for argument in arguments {
            guard let label = argument.label, label == "forKey" || label == "forKeyPath",
                case .literal(.string(let path), let location) = argument.value
            else { continue }
            let keys = label == "forKey" ? [path] : KeyPaths.components(path)
            checkKeys(keys, from: cls, use: use, at: location, length: path.count + 2)
        }
    }

    /// Walks `keys` from `cls` through declared to-one properties and warns
    /// about the first key that no property, method or instance variable
    /// answers. Stops, silent, at what it cannot see through: a collection
    /// operator, a to-many or Foundation value (whose own keys, such as a
    /// string's `length`, KVC answers), a method or an untyped property.
    func checkKeys(_ keys: [String], from cls: ScriptClass, use: KeyUse, at location: SourceLocation, length: Int) {
        var current = cls
        for key in keys {
            if key.hasPrefix("@") || key == "self" { return }
            // A class that answers undefined keys itself has every key.
            if current.method("valueForUndefinedKey") != nil || current.method("setValueForUndefinedKey") != nil {
                return
            }
            guard let property = current.info.property(named: key) else {
                if Self.kvcFinds(key, in: current) || current.method("set" + KeyPaths.capitalized(key)) != nil {
                    return
                }
                let names = current.info.properties.map(\.name)
                unknownKeyWarnings.append((key, location))
                warning(
                    .noKey(
                        className: current.info.name, key: key, suggestion: Suggestion.didYouMean(key, in: names),
                        consequence: use.consequence), at: location, length: length)
                return
            }
            guard case .object(let className) = property.type, let next = environment.classes[className] else { return }
            current = next
        }
    }
}

/// The same check for a Swift program's key-path strings (SPEC §11.0): the
/// rewriter cannot know a receiver's class, so a key is checked against every
/// key the program has (its classes' properties and methods, the keys it
/// posts by hand or passes as `forKey:`, the modelled Foundation classes'),
/// and is a warning only when one of them is near: a key no class has and
/// none resembles is a dictionary's or a `UserDefaults`' key as often as a typo.
public enum KeyPathStringCheck {
    /// The warning for `path`, given to `call`, or nil.
    public static func warning(path: String, call: String, known: Set<String>, candidates: [String]) -> String? {
        let use: Checker.KeyUse
        switch call {
        case "removeObserver": use = .removed
        case "value", "setValue": use = .accessed
        default: use = .observed
        }
        for key in KeyPaths.components(path) {
            // An operator (`@sum`) ends what can be checked: its right side
            // is the elements' key, which is checked as the rest.
            if key.hasPrefix("@") || key == "self" || key.isEmpty { continue }
            if known.contains(key) { continue }
            guard let near = Suggestion.closest(to: key, in: candidates) ?? transposed(key, in: known) else {
                return nil
            }
            return "no class in this program has a key '\(key)'; did you mean '\(near)'? (\(use.consequence))"
        }
        return nil
    }

    /// A known key that is `key` with two neighbouring letters swapped
    /// (`nmae`): the commonest typo, which an edit distance counts as two
    /// edits, past what `Suggestion` allows a short name.
    static func transposed(_ key: String, in known: Set<String>) -> String? {
        let characters = Array(key)
        guard characters.count >= 2, characters.count <= Suggestion.maxLength else { return nil }
        for index in 0..<(characters.count - 1) where characters[index] != characters[index + 1] {
            var swapped = characters
            swapped.swapAt(index, index + 1)
            let candidate = String(swapped)
            if known.contains(candidate) { return candidate }
        }
        return nil
    }
}
