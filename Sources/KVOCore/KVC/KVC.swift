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
    /// `asKVC`: the value comes from `setValue(_:forKey:)`, which converts
    /// only into scalars and stores anything else as it is (SPEC §4.2).
    public func set(_ object: KVOObject, _ property: PropertyInfo, _ value: Value, asKVC: Bool = false) throws {
        try checkAlive(object)
        guard object.observationInfo != nil, try object.cls.automaticallyNotifies(property) else {
            guard explains(about: object) else { return try store(object, property, value, asKVC: asKVC) }
            guard property.setter != nil else {
                explainSilentSet(object, property)
                return try store(object, property, value, asKVC: asKVC)
            }
            // A custom setter may notify by hand (an @manual key's
            // willChange/didChange): said only when it did not, after it ran.
            let key = ObjectKey(object, property.name)
            let started = changesStarted[key]
            try store(object, property, value, asKVC: asKVC)
            if changesStarted[key] == started { explainSilentSet(object, property) }
            return
        }
        let key = property.name
        if explains { explainAutomatic = true }
        do {
            try willChange(object, key: key)
            try store(object, property, value, asKVC: asKVC)
        } catch {
            discardPending(object, key: key)
            throw error
        }
        try didChange(object, key: key)
    }

    /// Runs the custom setter or stores into the slot, checking the declared type.
    func store(_ object: KVOObject, _ property: PropertyInfo, _ value: Value, asKVC: Bool = false) throws {
        if let setter = property.setter { return try setter(object, value) }
        guard let slot = property.slot else {
            throw ScriptError.runtime("property '\(property.name)' of \(object.cls.name) is read-only")
        }
        Value.replace(&object.slots[slot], with: try checked(value, for: property, of: object, asKVC: asKVC))
    }

    /// `o._prop = v`: the instance variable, never notifying.
    public func setIvar(_ object: KVOObject, _ property: PropertyInfo, _ value: Value) throws {
        // Inside a change of the same key (a custom setter between its will
        // and did) the write is that change's store, not a silent one.
        if explains(about: object) && !isPending(object, key: property.name) {
            explain(.silent(object: object.name, key: "_" + property.name, reason: .ivarWrite))
        }
        try storeIvar(object, property, value)
    }

    /// Stores into the instance variable: no setter runs, nobody is told.
    func storeIvar(_ object: KVOObject, _ property: PropertyInfo, _ value: Value) throws {
        try checkAlive(object)
        guard let slot = property.slot else {
            throw ScriptError.runtime(
                "computed property '\(property.name)' of \(object.cls.name) has no instance variable")
        }
        Value.replace(&object.slots[slot], with: try checked(value, for: property, of: object))
    }

    /// The value a property stores: the declared type's conversion, or the
    /// value itself when KVC stores into an object property (String, a
    /// class, an array, a set, `Any`), which KVC never converts: Objective-C
    /// keeps whatever object it is given (`setValue(5, forKey: "name")`).
    func checked(_ value: Value, for property: PropertyInfo, of object: KVOObject, asKVC: Bool = false) throws -> Value
    {
        if property.type.acceptsUnchanged(value) { return value }
        if asKVC && !property.type.isScalar { return property.type.accept(value) ?? value }
        guard let accepted = property.type.accept(value) else {
            throw ScriptError.runtime(
                "cannot store \(value.typeName) \(value.diagnosticDescription) in property '\(property.name)' of \(object.cls.name), declared \(property.type)"
            )
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
            if let property = object.cls.kvcProperty(named: key), !property.kvcHidden {
                return try get(object, property)
            }
            if let found = try searchGetter(object, key: key) { return found }
            if let hook = object.cls.hook(\.valueForUndefinedKey) { return try hook(object, key) }
            throw exception(Exceptions.undefinedKeyGet(object.pointerDescription, key: key))
        case .array, .set:
            if KeyPaths.isOperator(key) { return try collectionOperator(key, on: target, rest: [], owner: owner) }
            return try map(target, forKey: key)
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
        case .bool, .int, .double, .float, .decimal, .string:
            if let answer = Value.foundationGetter(target, key) { return answer }
            throw exception(Exceptions.undefinedKeyGet(collectionReceiver(target, owner: nil), key: key))
        case .context, .option, .setMutation, .observationInfo, .exception:
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
            let setterMethod = object.cls.setterMethod(forKey: key)
            guard setterMethod == nil, let property = object.cls.property(named: key), !property.isReadOnly,
                !property.kvcHidden
            else {
                if try setThroughSearch(value, of: object, forKey: key, setterMethod: setterMethod) { return }
                if let hook = object.cls.hook(\.setValueForUndefinedKey) { return try hook(object, value, key) }
                throw exception(Exceptions.undefinedKeySet(object.pointerDescription, key: key))
            }
            if property.type.isScalar && value.isNull {
                if let hook = object.cls.hook(\.setNilValueForKey) { return try hook(object, key) }
                throw exception(Exceptions.setNil(object, key: key))
            }
            try set(object, property, try coerce(value, to: property.type, key: key, of: object), asKVC: true)
        case .array, .set, .arrayProxy, .setProxy:
            try walkNested(target) { element in try setValue(value, of: element, forKey: key) }
        case .null:
            return
        case .bool, .int, .double, .float, .decimal, .string, .context, .option, .setMutation, .observationInfo,
            .change, .exception:
            throw exception(Exceptions.undefinedKeySet(collectionReceiver(target, owner: nil), key: key))
        }
    }

    // MARK: Accessor search

    /// The rest of Apple's *Accessor Search Pattern* for `valueForKey:`, after
    /// a plain property: the zero-argument accessors `get<Key>`, `<key>`,
    /// `is<Key>`, `_<key>`; then `countOf<Key>` with
    /// `objectIn<Key>AtIndex:` (an array of what they give); then the ivars
    /// `_<key>`, `_is<Key>`, `<key>`, `is<Key>`. Nil when nothing answers.
    func searchGetter(_ object: KVOObject, key: String) throws -> Value? {
        let cls = object.cls
        let capital = KeyPaths.capitalized(key)
        for name in ["get" + capital, key, "is" + capital, "_" + key] {
            switch cls.getter(named: name) {
            case .property(let property)?: return try get(object, property)
            case .method(let method)?: return try method(object)
            case nil: if name == "self" { return .object(object) }
            }
        }
        if let count = cls.getter(named: "countOf" + capital),
            let objectAt = cls.oneArgumentMethod("objectIn" + capital + "AtIndex")
        {
            let counted: Value
            switch count {
            case .property(let property): counted = try get(object, property)
            case .method(let method): counted = try method(object)
            }
            guard let number = counted.number, let total = Value.int(exactlyTruncating: number), total >= 0 else {
                throw ScriptError.runtime(
                    "countOf\(capital) of \(object.description) gave \(counted.collectionDescription); it must give a count (an Int of 0 or more)"
                )
            }
            return try withResultAllowance {
                try reserveResult(total, "the array of countOf\(capital) and objectIn\(capital)AtIndex")
                var elements: [Value] = []
                elements.reserveCapacity(total)
                for index in 0..<total {
                    try work.charge(1)
                    elements.append(try objectAt(object, .int(index)))
                }
                return .array(elements)
            }
        }
        for name in ["_" + key, "_is" + capital, key, "is" + capital] {
            if let ivar = cls.ivar(named: name) {
                try checkAlive(object)
                return ivar.slot.map { object.slots[$0] } ?? .null
            }
        }
        return nil
    }

    /// The rest of the search for `setValue:forKey:`: the method
    /// `set<Key>:` (found by the caller), then the ivars `_<key>`,
    /// `_is<Key>`, `<key>`, `is<Key>`. Either notifies observers of `key`
    /// itself (a setter method is KVO-compliant for the key it sets; an
    /// ivar reached through the key is changed under that key's name).
    /// False when nothing takes the value.
    func setThroughSearch(
        _ value: Value, of object: KVOObject, forKey key: String,
        setterMethod: ((KVOObject, Value) throws -> Value)?
    ) throws -> Bool {
        if let setterMethod {
            try notifyingAutomatically(object, key: key) { _ = try setterMethod(object, value) }
            return true
        }
        let capital = KeyPaths.capitalized(key)
        for name in ["_" + key, "_is" + capital, key, "is" + capital] {
            guard let ivar = object.cls.ivar(named: name) else { continue }
            if ivar.type.isScalar && value.isNull {
                if let hook = object.cls.hook(\.setNilValueForKey) {
                    try hook(object, key)
                    return true
                }
                throw exception(Exceptions.setNil(object, key: key))
            }
            let coerced = try coerce(value, to: ivar.type, key: key, of: object)
            try notifyingAutomatically(object, key: key) {
                try checkAlive(object)
                guard let slot = ivar.slot else { return }
                Value.replace(&object.slots[slot], with: try checked(coerced, for: ivar, of: object, asKVC: true))
            }
            return true
        }
        return false
    }

    /// Runs `body` (a change of `key` by other means than its property's
    /// setter) inside will/did for `key` when the key notifies automatically
    /// and the object is observed, as KVO's overridden setter does.
    public func notifyingAutomatically(_ object: KVOObject, key: String, _ body: () throws -> Void) throws {
        guard object.observationInfo != nil, try object.cls.automaticallyNotifies(forKey: key) else {
            return try body()
        }
        if explains { explainAutomatic = true }
        do {
            try willChange(object, key: key)
            try body()
        } catch {
            discardPending(object, key: key)
            throw error
        }
        try didChange(object, key: key)
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
            guard let int = Value.int(exactlyTruncating: number) else {
                throw ScriptError.runtime(
                    "\(Value.describe(double: number)) does not fit the Int property '\(key)' of \(object.cls.name); Int holds -9223372036854775808 through 9223372036854775807"
                )
            }
            return .int(int)
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
    func collectionOperator(
        _ name: String, on target: Value, rest: [String], owner: CollectionOwner? = nil
    ) throws -> Value {
        try withResultAllowance { try applyOperator(name, on: target, rest: rest, owner: owner) }
    }

    private func applyOperator(
        _ name: String, on target: Value, rest: [String], owner: CollectionOwner?
    ) throws -> Value {
        let elements: [Value]
        var isSet = false
        switch target {
        case .array(let values): elements = values
        case .set(let set):
            elements = set.elements
            isSet = true
        case .arrayProxy, .setProxy:
            return try collectionOperator(
                name, on: try proxyContents(target), rest: rest,
                owner: owner ?? CollectionOwner(proxy: target))
        case .null: return .null
        default:
            throw exception(Exceptions.undefinedKeyGet(describeReceiver(target), key: name))
        }
        guard KeyPaths.operators.contains(name) else {
            return try undefinedOperator(name, on: target, elements, rest: rest, owner: owner)
        }
        let restPath = rest.isEmpty ? "self" : rest.joined(separator: ".")
        func mapped() throws -> [Value] {
            try reserveResult(elements.count, "the key path '\(name).\(restPath)'")
            var values: [Value] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                try work.charge(1)
                values.append(try value(of: element, forKeyPath: restPath))
            }
            return values
        }
        switch name {
        case "@count":
            return .int(elements.count)
        case "@sum":
            return Value.sum(try mapped())
        case "@avg":
            // NSArray's `_avgForKeyPath:` answers nil for an empty collection.
            return Value.average(try mapped())
        case "@max", "@min":
            var best: Value?
            for candidate in try mapped() where !candidate.isNull {
                guard let current = best else {
                    best = candidate
                    continue
                }
                let ascending = Value.compare(candidate, current) ?? false
                if name == "@min" ? ascending : (Value.compare(current, candidate) ?? false) { best = candidate }
            }
            return best ?? .null
        case "@unionOfObjects" where isSet, "@unionOfArrays" where isSet:
            // NSSet implements only the distinct unions.
            throw exception(
                Exceptions.unimplementedOperator(
                    collectionReceiver(target, owner: owner), operation: String(name.dropFirst())))
        case "@unionOfObjects":
            return .array(try mapped().filter { !$0.isNull })
        case "@distinctUnionOfObjects":
            let distinct = ValueSet(try mapped().filter { !$0.isNull })
            return isSet ? .set(distinct) : .array(distinct.elements)
        case "@unionOfArrays", "@distinctUnionOfArrays", "@distinctUnionOfSets":
            // The inner collections first, then their total size, checked
            // before the union is built: a million references to one large
            // array would otherwise ask the allocator for terabytes.
            var inners: [[Value]] = []
            var total = 0
            for inner in elements {
                try work.charge(1)
                switch try value(of: inner, forKeyPath: restPath) {
                case .array(let values):
                    total += values.count
                    inners.append(values)
                case .set(let set):
                    total += set.count
                    inners.append(set.elements)
                case .null: continue
                case let other:
                    throw exception(Exceptions.undefinedKeyGet(describeReceiver(other), key: name))
                }
                try reserveResult(total, "\(name)")
                total = 0
            }
            var union: [Value] = []
            for values in inners {
                for value in values where !value.isNull {
                    try work.charge(1)
                    union.append(value)
                }
            }
            if name == "@unionOfArrays" { return .array(union) }
            // A set's distinct unions are sets; an array's are arrays,
            // `@distinctUnionOfSets` included.
            return isSet ? .set(ValueSet(union)) : .array(ValueSet(union).elements)
        default:
            // Words that are not operators were handled above.
            return try undefinedOperator(name, on: target, elements, rest: rest, owner: owner)
        }
    }

    /// An `@word` that is not an operator. Followed by a path, NSArray looks
    /// for `_<word>ForKeyPath:` and raises; ending the path, its
    /// `valueForKey:` drops the `@` and asks NSObject's, which finds the
    /// collection's own zero-argument methods (`lastObject`) or raises from
    /// `valueForUndefinedKey:`.
    private func undefinedOperator(
        _ name: String, on target: Value, _ elements: [Value], rest: [String],
        owner: CollectionOwner?
    ) throws -> Value {
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

    // MARK: Mapping over collections

    /// The most elements the results of one KVC call may hold in all (maps,
    /// unions, operators' intermediate arrays): as many as an array may
    /// (`+`, `append` stop there too), so `ulimit -v 4GB` is never reached.
    public static let maxResultElements = 1 << 24
    /// The deepest nesting `value(forKey:)` maps through. Its result is a
    /// fresh nested array, which Swift releases recursively when a temporary
    /// holding it is dropped: this keeps that within the interpreter's stack.
    public static let maxMappedDepth = 100_000

    /// Runs `body` as (part of) one KVC call on collections: the outermost
    /// such call starts a fresh allowance of result elements, which calls
    /// nested in it (a getter reading another collection) share.
    func withResultAllowance<T>(_ body: () throws -> T) throws -> T {
        if resultNesting == 0 { resultAllowance = Self.maxResultElements }
        resultNesting += 1
        defer { resultNesting -= 1 }
        return try body()
    }

    /// Takes `count` elements from the allowance, before they are built.
    func reserveResult(_ count: Int, _ what: @autoclosure () -> String) throws {
        guard count <= resultAllowance else {
            throw ScriptError.runtime(
                "\(what()) would hold more than \(Self.maxResultElements) elements; work on smaller collections or fewer levels at a time"
            )
        }
        resultAllowance -= count
    }

    /// NSArray's and NSSet's `value(forKey:)`: the key's value for each
    /// element, collections inside mapped in turn to any depth. Iterative,
    /// with the size and depth of the result counted (without recursion)
    /// before any of it is built.
    func map(_ target: Value, forKey key: String) throws -> Value {
        try withResultAllowance {
            try reserveResult(
                try mappedSize(target), "value(forKey: \"\(key)\") over this \(target.typeName.lowercased())")
            struct Frame {
                let source: [Value]
                var next = 0
                var results: [Value] = []
                let isSet: Bool
            }
            func frame(_ collection: Value) throws -> Frame? {
                switch collection {
                case .array(let elements): return Frame(source: elements, isSet: false)
                case .set(let set): return Frame(source: set.elements, isSet: true)
                case .arrayProxy, .setProxy: return try frame(try proxyContents(collection))
                default: return nil
                }
            }
            guard let root = try frame(target) else { return try value(of: target, forKey: key) }
            var stack = [root]
            while true {
                let top = stack.count - 1
                if stack[top].next == stack[top].source.count {
                    let done = stack.removeLast()
                    let result: Value = done.isSet ? .set(ValueSet(done.results)) : .array(done.results)
                    if stack.isEmpty { return result }
                    stack[stack.count - 1].results.append(result)
                    continue
                }
                let element = stack[top].source[stack[top].next]
                stack[top].next += 1
                try work.charge(1)
                if let inner = try frame(element) {
                    stack.append(inner)
                } else {
                    let result = try value(of: element, forKey: key)
                    // NSSet's `valueForKey:` adds only non-nil results;
                    // NSArray's puts NSNull in their place.
                    if !(stack[top].isSet && result.isNull) { stack[top].results.append(result) }
                }
            }
        }
    }

    /// How many elements mapping `target` builds (every element of every
    /// collection reached, as often as it is reached), counting only up to
    /// what the allowance admits; throws past `maxMappedDepth` levels.
    private func mappedSize(_ target: Value) throws -> Int {
        var total = 0
        try walkNested(
            target,
            entering: { count, depth in
                total += count
                if depth > Self.maxMappedDepth {
                    throw ScriptError.runtime(
                        "value(forKey:) would map over collections nested more than \(Self.maxMappedDepth) levels deep; read the nested arrays one level at a time"
                    )
                }
            }, while: { total <= self.resultAllowance }, leaf: { _ in })
        return total
    }

    /// Visits every element of the collection `target` and of the collections
    /// nested in it, depth first, with an explicit stack: arrays nest millions
    /// of levels deep. `entering` gets each collection's element count and
    /// depth as it is entered; `leaf` gets every element that is not a
    /// collection. Each element is charged as a unit of work; the walk stops
    /// early when `keepGoing` turns false.
    private func walkNested(
        _ target: Value, entering: (_ count: Int, _ depth: Int) throws -> Void = { _, _ in },
        while keepGoing: () -> Bool = { true }, leaf: (Value) throws -> Void
    ) throws {
        var stack: [(elements: [Value], next: Int)] = []
        func push(_ value: Value) throws -> Bool {
            switch value {
            case .array(let elements): stack.append((elements, 0))
            case .set(let set): stack.append((set.elements, 0))
            case .arrayProxy, .setProxy: return try push(try proxyContents(value))
            default: return false
            }
            try entering(stack[stack.count - 1].elements.count, stack.count)
            return true
        }
        guard try push(target) else { return }
        while !stack.isEmpty && keepGoing() {
            let top = stack.count - 1
            let index = stack[top].next
            if index == stack[top].elements.count {
                stack.removeLast()
                continue
            }
            stack[top].next = index + 1
            try work.charge(1)
            let element = stack[top].elements[index]
            if try !push(element) { try leaf(element) }
        }
    }

    func describeReceiver(_ value: Value) -> String {
        if case .object(let object) = value { return object.pointerDescription }
        return collectionReceiver(value, owner: nil)
    }
}

extension Value {
    /// What Foundation's own values answer to `valueForKey:` (SPEC §5): an
    /// NSString its `length`, number getters and case mappings; an NSNumber
    /// its number getters and `stringValue`; both `self`. Nil for any other key.
    static func foundationGetter(_ value: Value, _ key: String) -> Value? {
        if key == "self" { return value }
        if case .string(let string) = value {
            switch key {
            case "length": return .int(string.utf16.count)
            case "intValue": return .int(Int(Int32(clamping: nsStringIntegerValue(string))))
            case "integerValue": return .int(nsStringIntegerValue(string))
            case "doubleValue": return .double(nsStringDoubleValue(string))
            case "floatValue": return .float(Float(nsStringDoubleValue(string)))
            case "boolValue": return .bool(nsStringBoolValue(string))
            case "lowercaseString": return .string(string.lowercased())
            case "uppercaseString": return .string(string.uppercased())
            case "capitalizedString": return .string(capitalizedWords(string))
            default: return nil
            }
        }
        guard let number = value.number else { return nil }
        switch key {
        case "intValue":
            // A C conversion: an integer keeps its low 32 bits; a
            // fraction is cut toward zero, saturating (as arm64 converts).
            if case .int(let int) = value { return .int(Int(Int32(truncatingIfNeeded: int))) }
            return .int(
                number.isNaN
                    ? 0 : Int(Int32(clamping: Value.int(exactlyTruncating: number) ?? (number < 0 ? Int.min : Int.max)))
            )
        case "integerValue":
            if case .int = value { return value }
            return .int(number.isNaN ? 0 : Value.int(exactlyTruncating: number) ?? (number < 0 ? Int.min : Int.max))
        case "doubleValue": return .double(number)
        case "floatValue":
            if case .float = value { return value }
            return .float(Float(number))
        case "boolValue": return .bool(number != 0)
        case "stringValue": return .string(value.numberDescription ?? "")
        default: return nil
        }
    }

    /// NSString's `capitalizedString`: each word's first character
    /// uppercased and the rest lowercased; words end at spaces, tabs and
    /// line ends.
    static func capitalizedWords(_ string: String) -> String {
        var result = ""
        var startOfWord = true
        for character in string {
            if character.isWhitespace || character.isNewline {
                result.append(character)
                startOfWord = true
            } else {
                result += startOfWord ? character.uppercased() : character.lowercased()
                startOfWord = false
            }
        }
        return result
    }

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
    /// One scan finds the longest prefix of the form
    /// `[+-]digits[.digits][(e|E)[+-]digits]` (with a digit before or after the
    /// point), which `Double` then parses once: trying every prefix was
    /// quadratic in a long digit string.
    static func nsStringDoubleValue(_ string: String) -> Double {
        let bytes = Array(
            string.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") })
        func isDigit(_ index: Int) -> Bool {
            index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
        }
        func isSign(_ index: Int) -> Bool {
            index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
        }
        var index = 0
        if isSign(index) { index += 1 }
        var digits = 0
        while isDigit(index) {
            index += 1
            digits += 1
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            var after = index + 1
            var fraction = 0
            while isDigit(after) {
                after += 1
                fraction += 1
            }
            if digits + fraction > 0 {
                index = after
                digits += fraction
            }
        }
        guard digits > 0 else { return 0 }
        var end = index
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            var exponent = index + 1
            if isSign(exponent) { exponent += 1 }
            if isDigit(exponent) {
                while isDigit(exponent) { exponent += 1 }
                end = exponent
            }
        }
        return Double(String(decoding: bytes[0..<end], as: UTF8.self)) ?? 0
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

    /// `@sum`: an NSDecimalNumber, as NSArray's `_sumForKeyPath:` adds each
    /// value's `decimalValue`; nil counts 0. A value no decimal holds (NaN,
    /// an infinity, past 10^127) makes it a Double sum instead.
    static func sum(_ values: [Value]) -> Value {
        var total = DecimalNumber(0)
        for value in values {
            guard let decimal = value.kvcDecimal, let next = total.adding(decimal) else {
                return .double(values.reduce(0.0) { $0 + ($1.kvcNumber ?? 0) })
            }
            total = next
        }
        return .decimal(total)
    }

    /// `@avg`: the sum divided by the count, as NSDecimalNumber divides
    /// (38 significant digits); nil for no values.
    static func average(_ values: [Value]) -> Value {
        guard !values.isEmpty else { return .null }
        let total = sum(values)
        if case .decimal(let decimal) = total, let average = decimal.divided(by: values.count) {
            return .decimal(average)
        }
        return .double((total.number ?? 0) / Double(values.count))
    }

    /// `-decimalValue` of what a key path gave: a number's own digits (a
    /// float's as it prints), a string's `doubleValue`; 0 for nil.
    var kvcDecimal: DecimalNumber? {
        switch self {
        case .null: return DecimalNumber(0)
        case .int(let int): return DecimalNumber(int)
        case .bool(let flag): return DecimalNumber(flag ? 1 : 0)
        case .decimal(let decimal): return decimal
        case .float(let float): return Double(Value.describe(float: float)).flatMap(DecimalNumber.init)
        default: return DecimalNumber(kvcNumber ?? 0)
        }
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
        case .double, .float: return "Double"
        case .decimal: return "NSDecimalNumber"
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
