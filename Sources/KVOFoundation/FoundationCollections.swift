import KVOCore

/// Key-value coding on Foundation's collection classes (SPEC §11.7, §5): an
/// array's `value(forKey:)` maps the key over its elements, `value(forKeyPath:)`
/// applies the collection operators (`@sum`, `@avg`, `@distinctUnionOfObjects`…),
/// a dictionary's `value(forKey:)` is `object(forKey:)` (a key that starts
/// with `@` asks the dictionary itself, without the `@`), and an array, a set
/// or an ordered set refuses to be observed, as Apple's raise.
///
/// These are swift-corelibs-foundation's own classes, extended, not kvo-run
/// `NSObject` subclasses as `Progress` is: the compiler bridges Swift's
/// `Array`, `Dictionary` and `Set` to them (`as NSArray`, `as! [String]`)
/// through corelibs' `_ObjectiveCBridgeable` conformances, which a second
/// class cannot share. The operators are the engine's (exact decimals for
/// `@sum` and `@avg`); the elements are read here, where a dictionary is.
enum _KVOCollections {
    /// `valueForKeyPath:` of any object KVC reaches: a kvo-run object, a
    /// Foundation collection or Swift's, a dictionary, a number or a string.
    static func value(of receiver: Any, forKeyPath keyPath: String) -> Any? {
        var keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.isEmpty else { return receiver }
        let first = keys.removeFirst()
        if let elements = elements(of: receiver) {
            return arrayValue(elements, receiver: receiver, first: first, rest: keys)
        }
        if let object = receiver as? NSObject {
            return object.value(forKeyPath: ([first] + keys).joined(separator: "."))
        }
        let next = value(of: receiver, forKey: first)
        guard !keys.isEmpty else { return next }
        guard let next, !(next is NSNull) else { return nil }
        return value(of: next, forKeyPath: keys.joined(separator: "."))
    }

    /// `valueForKey:` of one object.
    static func value(of receiver: Any, forKey key: String) -> Any? {
        if let elements = elements(of: receiver) {
            return arrayValue(elements, receiver: receiver, first: key, rest: [])
        }
        if let object = receiver as? NSObject { return object.value(forKey: key) }
        if let dictionary = dictionary(receiver) {
            guard key.hasPrefix("@") else { return dictionary[key] }
            // NSDictionary's `valueForKey:` hands "@key" to NSObject's, without the "@".
            let own = String(key.dropFirst())
            switch own {
            case "count": return NSNumber(value: dictionary.count)
            case "allKeys": return dictionary.keys.sorted() as [Any]
            case "allValues": return Array(dictionary.values)
            default: raiseUndefinedKey(receiver, own)
            }
        }
        if key == "self" { return receiver }
        raiseUndefinedKey(receiver, key)
    }

    /// An array's (or a set's) `valueForKeyPath:` from its first key on.
    private static func arrayValue(_ elements: [Any], receiver: Any, first: String, rest: [String]) -> Any? {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        if first.hasPrefix("@") {
            // The operand path is read here (a dictionary is no engine value),
            // then the engine applies the operator to what it read.
            let operand: [Any]
            if first == "@count" || rest.isEmpty {
                operand = elements
            } else {
                let path = rest.joined(separator: ".")
                operand = elements.map { value(of: $0, forKeyPath: path) ?? NSNull() }
            }
            let target: Value =
                isSet(receiver) ? .set(ValueSet(operand.map(_KVOBridge.value))) : .array(operand.map(_KVOBridge.value))
            return _KVOBridge.swiftValue(process.run { try process.kvo.value(of: target, forKeyPath: first) })
        }
        // A key maps over the elements (nil is NSNull), then the rest of the path.
        let mapped: [Any] = elements.map { value(of: $0, forKey: first) ?? NSNull() }
        let result: Any = isSet(receiver) ? NSSet(array: mapped.filter { !($0 is NSNull) }) : NSArray(array: mapped)
        guard !rest.isEmpty else { return result }
        return value(of: result, forKeyPath: rest.joined(separator: "."))
    }

    /// The elements of an array, a set or an ordered set (Foundation's or Swift's).
    static func elements(of receiver: Any) -> [Any]? {
        switch receiver {
        case is NSObject: return nil
        case let array as NSArray: return array.map { $0 }
        case let set as NSSet: return set.allObjects
        case let ordered as NSOrderedSet: return ordered.array
        case is String, is NSString, is NSNumber: return nil
        case let array as [Any]: return array
        default: return nil
        }
    }

    private static func isSet(_ receiver: Any) -> Bool { receiver is NSSet }

    private static func dictionary(_ receiver: Any) -> [String: Any]? {
        if let dictionary = receiver as? NSDictionary {
            var result: [String: Any] = [:]
            for (key, value) in dictionary { result[String(describing: key)] = value }
            return result
        }
        return receiver as? [String: Any]
    }

    /// `valueForUndefinedKey:`'s NSUnknownKeyException, which ends the
    /// program (Swift cannot catch it).
    static func raiseUndefinedKey(_ receiver: Any, _ key: String) -> Never {
        _KVOProcess.entered().raise(Exceptions.undefinedKeyGet(self.receiver(receiver), key: key))
    }

    /// An array, a set or an ordered set refuses observers (Apple's NSArray,
    /// NSSet and NSOrderedSet raise): observe the property that holds it.
    static func raiseObserving(_ receiver: Any, keyPath: String, removing: Bool, context: Bool) -> Never {
        let who = self.receiver(receiver)
        _KVOProcess.entered().raise(
            removing
                ? Exceptions.removeObserverFromCollection(who, keyPath: keyPath, withContext: context)
                : Exceptions.observeCollection(who, keyPath: keyPath))
    }

    /// `<__NSArrayI (a, b)>`: how an exception's reason names the receiver.
    static func receiver(_ receiver: Any) -> String {
        "<\(foundationClassName(receiver)) \(receiverName(receiver))>"
    }

    /// The class a Mac names for the receiver (`__NSArrayI`, `__NSDictionaryM`…).
    static func foundationClassName(_ receiver: Any) -> String {
        switch receiver {
        case is NSMutableArray: return "__NSArrayM"
        case is NSArray: return "__NSArrayI"
        case is NSMutableSet: return "__NSSetM"
        case is NSSet: return "__NSSetI"
        case is NSMutableOrderedSet: return "__NSOrderedSetM"
        case is NSOrderedSet: return "__NSOrderedSetI"
        case is NSMutableDictionary: return "__NSDictionaryM"
        case is NSDictionary: return "__NSDictionaryI"
        case is NSNumber: return "__NSCFNumber"
        case is String, is NSString: return "__NSCFString"
        default: return _typeName(type(of: receiver), qualified: false)
        }
    }

    /// How an exception names the receiver where a Mac prints its address
    /// (SPEC §3.1: no addresses): an array or a set by its elements, as the
    /// engine names a collection (`(a, b)`); a dictionary by its description
    /// on one line.
    static func receiverName(_ receiver: Any) -> String {
        if elements(of: receiver) != nil { return _KVOBridge.value(receiver).collectionDescription }
        return _KVOPrinter.describe(receiver).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }
}

extension NSArray {
    /// Sets `key` of every element.
    public func setValue(_ value: Any?, forKey key: String) {
        for element in self {
            if let object = element as? NSObject {
                object.setValue(value, forKey: key)
            } else if let dictionary = element as? NSMutableDictionary {
                dictionary.setValue(value, forKey: key)
            } else {
                _KVOProcess.entered().raise(Exceptions.undefinedKeySet(_KVOCollections.receiver(element), key: key))
            }
        }
    }
}

/// What an array, a set and an ordered set share: KVC over their elements,
/// and observers refused with Apple's exception (observe the property that
/// holds the collection).
public protocol _KVOElementCollection {}
extension NSArray: _KVOElementCollection {}
extension NSSet: _KVOElementCollection {}
extension NSOrderedSet: _KVOElementCollection {}

extension _KVOElementCollection {
    public func value(forKey key: String) -> Any? {
        _KVOBridge.objectiveC(value: _KVOCollections.value(of: self, forKey: key))
    }

    public func value(forKeyPath keyPath: String) -> Any? {
        _KVOBridge.objectiveC(value: _KVOCollections.value(of: self, forKeyPath: keyPath))
    }

    public func addObserver(
        _ observer: NSObject, forKeyPath keyPath: String, options: NSKeyValueObservingOptions = [],
        context: UnsafeMutableRawPointer?
    ) {
        _KVOCollections.raiseObserving(self, keyPath: keyPath, removing: false, context: false)
    }

    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String) {
        _KVOCollections.raiseObserving(self, keyPath: keyPath, removing: true, context: false)
    }

    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?) {
        _KVOCollections.raiseObserving(self, keyPath: keyPath, removing: true, context: true)
    }
}

extension NSDictionary {
    /// `dictionary[key]` as a Mac's `objectForKeyedSubscript:` hands it to
    /// Swift: the object itself (an NSString prints bare inside an
    /// Optional, a Bool is an `__NSCFBoolean`; SPEC §11.8), where corelibs'
    /// subscript gives back a Swift value. Get only: an assignment still
    /// finds corelibs' subscript, which stores.
    public subscript(key: String) -> Any? { _KVOBridge.objectiveC(value: object(forKey: key)) }

    /// `object(forKey:)`; a key that starts with `@` asks the dictionary
    /// itself, without the `@` (`@count`).
    public func value(forKey key: String) -> Any? {
        _KVOBridge.objectiveC(value: _KVOCollections.value(of: self, forKey: key))
    }

    public func value(forKeyPath keyPath: String) -> Any? {
        _KVOBridge.objectiveC(value: _KVOCollections.value(of: self, forKeyPath: keyPath))
    }

    /// Not modelled: swift-corelibs-foundation's dictionary tells no one of
    /// its changes, so the observation would never fire (SPEC §11.7).
    public func addObserver(
        _ observer: NSObject, forKeyPath keyPath: String, options: NSKeyValueObservingOptions = [],
        context: UnsafeMutableRawPointer?
    ) {
        let process = _KVOProcess.entered()
        process.fail(
            "observing the key '\(keyPath)' of an \(self is NSMutableDictionary ? "NSMutableDictionary" : "NSDictionary") is not modelled by kvo-run (SPEC §11.7): the observation would never fire; keep the value in an '@objc dynamic var' of your own class and observe that",
            column: process.callColumn)
    }

    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String) {
        addObserver(observer, forKeyPath: keyPath, context: nil)
    }

    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?) {
        addObserver(observer, forKeyPath: keyPath, context: context)
    }
}

extension NSMutableDictionary {
    /// `setObject(_:forKey:)`; nil removes the key.
    public func setValue(_ value: Any?, forKey key: String) {
        if let value {
            setObject(value, forKey: key as NSString)
        } else {
            removeObject(forKey: key)
        }
    }
}
