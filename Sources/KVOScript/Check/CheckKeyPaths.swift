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
