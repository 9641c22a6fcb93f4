/// Key-Value Coding: `value(forKey:)`, `setValue(_:forKey:)`, key paths,
/// collection operators and the accessors the language's `o.prop` uses.
extension KVORuntime {
    // MARK: Accessors

    /// `o.prop`: the getter.
    public func get(_ object: KVOObject, _ property: PropertyInfo) throws -> Value {
        try checkAlive(object)
        if let slot = property.slot { return object.slots[slot] }
        guard let getter = property.getter else { return .null }
        return try getter(object)
    }

    /// `o.prop = v`: the setter, wrapped in will/did when the key notifies
    /// automatically and someone observes the object. An unobserved object costs
    /// one check.
    public func set(_ object: KVOObject, _ property: PropertyInfo, _ value: Value) throws {
        try checkAlive(object)
        guard object.observationInfo != nil, try object.cls.automaticallyNotifies(property) else {
            return try store(object, property, value)
        }
        let key = property.name
        do {
            try willChange(object, key: key)
            try store(object, property, value)
        } catch {
            discardPending(object, key: key)
            throw error
        }
        try didChange(object, key: key)
    }

    /// Runs the custom setter or stores into the slot, checking the declared type.
    func store(_ object: KVOObject, _ property: PropertyInfo, _ value: Value) throws {
        if let setter = property.setter { return try setter(object, value) }
        guard let slot = property.slot else {
            throw ScriptError.runtime("property '\(property.name)' of \(object.cls.name) is read-only")
        }
        object.slots[slot] = try checked(value, for: property, of: object)
    }

    /// `o._prop = v`: the instance variable, never notifying.
    public func setIvar(_ object: KVOObject, _ property: PropertyInfo, _ value: Value) throws {
        try checkAlive(object)
        guard let slot = property.slot else {
            throw ScriptError.runtime("computed property '\(property.name)' of \(object.cls.name) has no instance variable")
        }
        object.slots[slot] = try checked(value, for: property, of: object)
    }

    func checked(_ value: Value, for property: PropertyInfo, of object: KVOObject) throws -> Value {
        guard let accepted = property.type.accept(value) else {
            throw ScriptError.runtime("cannot store \(value.typeName) \(value.collectionDescription) in property '\(property.name)' of \(object.cls.name), declared \(property.type)")
        }
        return accepted
    }

    // MARK: value(forKey:)

    /// `value(forKey:)` on any value: objects, collections (mapped, as NSArray
    /// does), proxies and change dictionaries.
    /// `owner` names a collection reached through a property (`dept.employees`)
    /// in exception texts.
    public func value(of target: Value, forKey key: String, owner: CollectionOwner? = nil) throws -> Value {
        switch target {
        case .object(let object):
            try checkAlive(object)
            if let property = object.cls.property(named: key) { return try get(object, property) }
            if key == "self" { return target }
            if let method = object.cls.getterMethod(key) { return try method(object) }
            if let hook = object.cls.hook(\.valueForUndefinedKey) { return try hook(object, key) }
            throw exception(Exceptions.undefinedKeyGet(object.pointerDescription, key: key))
        case .array(let elements):
            if KeyPaths.isOperator(key) { return try collectionOperator(key, on: target, rest: [], owner: owner) }
            return .array(try elements.map { try value(of: $0, forKey: key) })
        case .set(let set):
            if KeyPaths.isOperator(key) { return try collectionOperator(key, on: target, rest: [], owner: owner) }
            return .set(ValueSet(try set.elements.map { try value(of: $0, forKey: key) }))
        case .arrayProxy, .setProxy:
            return try value(of: try proxyContents(target), forKey: key, owner: CollectionOwner(proxy: target))
        case .change(let change):
            switch key {
            case "kind": return .int(change.kind.rawValue)
            case "new": return change.new ?? .null
            case "old": return change.old ?? .null
            case "indexes": return change.indexes.map { .array($0.map(Value.int)) } ?? .null
            case "notificationIsPrior": return change.isPrior ? .bool(true) : .null
            default: return .null
            }
        case .null:
            return .null
        case .bool, .int, .double, .string, .context, .option, .setMutation, .observationInfo, .exception:
            if key == "self" { return target }
            throw exception(Exceptions.undefinedKeyGet(collectionReceiver(target, owner: nil), key: key))
        }
    }

    /// `value(forKeyPath:)`: one key at a time; a collection operator applies to
    /// the collection reached so far and the rest of the path.
    public func value(of target: Value, forKeyPath keyPath: String, owner: CollectionOwner? = nil) throws -> Value {
        if !keyPath.utf8.contains(UInt8(ascii: ".")) && !KeyPaths.isOperator(keyPath) {
            return try value(of: target, forKey: keyPath, owner: owner)
        }
        return try value(of: target, forPath: KeyPaths.components(keyPath)[...], owner: owner)
    }

    /// `value(forKeyPath:)` with the path already split. A collection met on
    /// the way is named after the object and key it was read from.
    func value(of target: Value, forPath path: ArraySlice<String>, owner: CollectionOwner? = nil) throws -> Value {
        var current = target
        var currentOwner = owner
        for index in path.indices {
            let key = path[index]
            if KeyPaths.isOperator(key) {
                return try collectionOperator(key, on: current, rest: Array(path[(index + 1)...]), owner: currentOwner)
            }
            let next = try value(of: current, forKey: key, owner: currentOwner)
            if case .object(let object) = current {
                currentOwner = CollectionOwner(object: object, key: key)
            } else {
                currentOwner = nil
            }
            current = next
        }
        return current
    }

    // MARK: setValue(_:forKey:)

    /// `setValue(_:forKey:)`: coerces as KVC does, calls `setNilValueForKey` for
    /// nil scalars and the setter (which notifies) otherwise.
    public func setValue(_ value: Value, of target: Value, forKey key: String) throws {
        switch target {
        case .object(let object):
            try checkAlive(object)
            guard let property = object.cls.property(named: key), !property.isReadOnly else {
                if let hook = object.cls.hook(\.setValueForUndefinedKey) { return try hook(object, value, key) }
                throw exception(Exceptions.undefinedKeySet(object.pointerDescription, key: key))
            }
            if property.type.isScalar && value.isNull {
                if let hook = object.cls.hook(\.setNilValueForKey) { return try hook(object, key) }
                throw exception(Exceptions.setNil(object, key: key))
            }
            try set(object, property, try coerce(value, to: property.type, key: key, of: object))
        case .array(let elements):
            for element in elements { try setValue(value, of: element, forKey: key) }
        case .set(let set):
            for element in set.elements { try setValue(value, of: element, forKey: key) }
        case .arrayProxy, .setProxy:
            try setValue(value, of: try proxyContents(target), forKey: key)
        case .null:
            return
        case .bool, .int, .double, .string, .context, .option, .setMutation, .observationInfo, .change, .exception:
            throw exception(Exceptions.undefinedKeySet(collectionReceiver(target, owner: nil), key: key))
        }
    }

    /// `setValue(_:forKeyPath:)`: the setter of the last object on the path.
    public func setValue(_ value: Value, of target: Value, forKeyPath keyPath: String) throws {
        var path = KeyPaths.components(keyPath)
        let last = path.removeLast()
        var current = target
        for key in path { current = try self.value(of: current, forKey: key) }
        try setValue(value, of: current, forKey: last)
    }

    /// KVC's unboxing: numbers convert between Int, Double and Bool; a string
    /// gives the number it starts with, or 0.
    func coerce(_ value: Value, to type: ValueType, key: String, of object: KVOObject) throws -> Value {
        switch (type, value) {
        case (.int, _):
            if case .int = value { return value }
            if case .string(let string) = value { return .int(Value.nsStringIntegerValue(string)) }
            guard let number = value.kvcNumber else { break }
            guard number.isFinite, number > -9.3e18, number < 9.3e18 else {
                throw ScriptError.runtime("\(Value.describe(double: number)) does not fit the Int property '\(key)' of \(object.cls.name)")
            }
            return .int(Int(number))
        case (.double, _):
            if let number = value.kvcNumber { return .double(number) }
        case (.bool, _):
            if case .string(let string) = value { return .bool(Value.nsStringBoolValue(string)) }
            if let number = value.kvcNumber { return .bool(number != 0) }
        default:
            break
        }
        return value
    }

    // MARK: Collection operators

    /// `@count`, `@sum`, `@avg`, `@max`, `@min` and the union operators, as
    /// NSArray's and NSSet's `valueForKeyPath:` apply them; `owner` names the
    /// collection in exception texts.
    func collectionOperator(_ name: String, on target: Value, rest: [String], owner: CollectionOwner? = nil) throws -> Value {
        let elements: [Value]
        switch target {
        case .array(let values): elements = values
        case .set(let set): elements = set.elements
        case .arrayProxy, .setProxy:
            return try collectionOperator(name, on: try proxyContents(target), rest: rest,
                                          owner: owner ?? CollectionOwner(proxy: target))
        case .null: return .null
        default:
            throw exception(Exceptions.undefinedKeyGet(describeReceiver(target), key: name))
        }
        guard KeyPaths.operators.contains(name) else {
            return try undefinedOperator(name, on: target, elements, rest: rest, owner: owner)
        }
        let restPath = rest.isEmpty ? "self" : rest.joined(separator: ".")
        func mapped() throws -> [Value] { try elements.map { try value(of: $0, forKeyPath: restPath) } }
        switch name {
        case "@count":
            return .int(elements.count)
        case "@sum":
            return Value.sum(try mapped())
        case "@avg":
            // NSArray's `_avgForKeyPath:` answers nil for an empty collection.
            let values = try mapped()
            guard !values.isEmpty, let total = Value.sum(values).number else { return .null }
            return .double(total / Double(values.count))
        case "@max", "@min":
            var best: Value?
            for candidate in try mapped() where !candidate.isNull {
                guard let current = best else { best = candidate; continue }
                let ascending = Value.compare(candidate, current) ?? false
                if name == "@min" ? ascending : (Value.compare(current, candidate) ?? false) { best = candidate }
            }
            return best ?? .null
        case "@unionOfObjects":
            return .array(try mapped().filter { !$0.isNull })
        case "@distinctUnionOfObjects":
            return .array(ValueSet(try mapped().filter { !$0.isNull }).elements)
        default:  // "@unionOfArrays", "@distinctUnionOfArrays", "@distinctUnionOfSets"
            var union: [Value] = []
            for inner in elements {
                switch try value(of: inner, forKeyPath: restPath) {
                case .array(let values): union += values.filter { !$0.isNull }
                case .set(let set): union += set.elements.filter { !$0.isNull }
                case .null: continue
                case let other:
                    throw exception(Exceptions.undefinedKeyGet(describeReceiver(other), key: name))
                }
            }
            if name == "@unionOfArrays" { return .array(union) }
            if name == "@distinctUnionOfSets" { return .set(ValueSet(union)) }
            return .array(ValueSet(union).elements)
        }
    }

    /// An `@word` that is not an operator. Followed by a path, NSArray looks
    /// for `_<word>ForKeyPath:` and raises; ending the path, its
    /// `valueForKey:` drops the `@` and asks NSObject's, which finds the
    /// collection's own zero-argument methods (`lastObject`) or raises from
    /// `valueForUndefinedKey:`.
    private func undefinedOperator(_ name: String, on target: Value, _ elements: [Value], rest: [String],
                                   owner: CollectionOwner?) throws -> Value {
        let word = String(name.dropFirst())
        let receiver = collectionReceiver(target, owner: owner)
        guard rest.isEmpty else {
            throw exception(Exceptions.unimplementedOperator(receiver, operation: word))
        }
        switch (word, target) {
        case ("self", _): return target
        case ("firstObject", .array): return elements.first ?? .null
        case ("lastObject", .array): return elements.last ?? .null
        default: throw exception(Exceptions.undefinedKeyGet(receiver, key: word))
        }
    }

    func describeReceiver(_ value: Value) -> String {
        if case .object(let object) = value { return object.pointerDescription }
        return collectionReceiver(value, owner: nil)
    }
}

extension Value {
    /// The number KVC unboxes from a value (`-doubleValue`), if it has one.
    var kvcNumber: Double? {
        if let number { return number }
        if case .string(let string) = self { return Value.nsStringDoubleValue(string) }
        return nil
    }

    /// NSString's `longLongValue`: the decimal integer the string starts with,
    /// or 0; saturating as the C scanner does.
    static func nsStringIntegerValue(_ string: String) -> Int {
        var scalars = Substring(string).unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var negative = false
        if let sign = scalars.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        var result = 0
        for scalar in scalars {
            guard let digit = Int(String(scalar)), ("0"..."9").contains(scalar) else { break }
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return negative ? Int.min : Int.max }
            result = next
        }
        return negative ? -result : result
    }

    /// NSString's `doubleValue`: the decimal number the string starts with, or 0.
    static func nsStringDoubleValue(_ string: String) -> Double {
        let decimal = string.unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
            .prefix { ("0"..."9").contains($0) || $0 == "." || $0 == "e" || $0 == "E" || $0 == "+" || $0 == "-" }
        let scalars = Array(decimal)
        var end = 0
        var best = 0
        var text = ""
        while end < scalars.count {
            text.unicodeScalars.append(scalars[end])
            end += 1
            if Double(text) != nil, text.last != "e", text.last != "E" { best = end }
        }
        let prefix = String(String.UnicodeScalarView(scalars[0..<best]))
        return Double(prefix) ?? 0
    }

    /// NSString's `boolValue`: Y, y, T, t or a digit 1–9 after optional spaces,
    /// sign and zeros.
    static func nsStringBoolValue(_ string: String) -> Bool {
        var scalars = string.unicodeScalars.drop { $0 == " " || $0 == "\t" }
        if let first = scalars.first, first == "+" || first == "-" { scalars = scalars.dropFirst() }
        scalars = scalars.drop { $0 == "0" }
        guard let first = scalars.first else { return false }
        return "YyTt123456789".unicodeScalars.contains(first)
    }

    /// `@sum`: Int while every value is an Int and no overflow, else Double; nil counts 0.
    static func sum(_ values: [Value]) -> Value {
        var intTotal = 0
        var allInts = true
        var total = 0.0
        for value in values {
            if case .int(let int) = value, allInts {
                let (result, overflow) = intTotal.addingReportingOverflow(int)
                if !overflow { intTotal = result } else { allInts = false }
            } else if !value.isNull {
                allInts = false
            }
            total += value.kvcNumber ?? 0
        }
        return allInts ? .int(intTotal) : .double(total)
    }

    /// `compare:` for numbers and strings; nil when the two do not compare.
    public static func compare(_ lhs: Value, _ rhs: Value) -> Bool? {
        if let a = lhs.number, let b = rhs.number { return a < b }
        if case .string(let a) = lhs, case .string(let b) = rhs { return a < b }
        return nil
    }

    /// The type name in runtime error messages.
    public var typeName: String {
        switch self {
        case .null: return "nil"
        case .bool: return "Bool"
        case .int: return "Int"
        case .double: return "Double"
        case .string: return "String"
        case .object(let object): return object.cls.name
        case .array: return "Array"
        case .set: return "Set"
        case .context: return "context"
        case .option: return "option"
        case .setMutation: return "set mutation"
        case .arrayProxy: return "mutable array proxy"
        case .setProxy: return "mutable set proxy"
        case .observationInfo: return "observation info"
        case .change: return "change dictionary"
        case .exception: return "exception"
        }
    }
}
