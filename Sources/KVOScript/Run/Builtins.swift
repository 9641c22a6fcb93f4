import KVOCore

/// What Foundation's KVC/KVO methods and the collection proxies' methods do
/// (docs/language.md#foundation-api), keyed by the signatures of
/// `BuiltinSignatures`, which is what the checker reads.
enum Builtins {
    typealias Implementation = (Machine, Value, [Value]) throws -> Value

    static func call(_ signature: String, _ machine: Machine, _ receiver: Value, _ arguments: [Value]) throws -> Value {
        guard let implementation = table[signature] else {
            throw ScriptError.runtime(.noBuiltinMethod(signature: signature))
        }
        return try implementation(machine, receiver, arguments)
    }

    nonisolated(unsafe) static let table: [String: Implementation] = tokenAndValidationTable.merging(foundationTable) {
        $1
    }

    nonisolated(unsafe) static let foundationTable: [String: Implementation] = [
        // KVC
        "value(forKey:)": { m, r, a in
            kvcResult(try m.kvo.value(of: r, forKey: try string(a[0], "key"), owner: m.receiverOwner))
        },
        "value(forKeyPath:)": { m, r, a in
            kvcResult(try m.kvo.value(of: r, forKeyPath: try string(a[0], "key path"), owner: m.receiverOwner))
        },
        "setValue(_:forKey:)": { m, r, a in
            try m.kvo.setValue(a[0], of: r, forKey: try string(a[1], "key"))
            return .null
        },
        "setValue(_:forKeyPath:)": { m, r, a in
            try m.kvo.setValue(a[0], of: r, forKeyPath: try string(a[1], "key path"))
            return .null
        },
        // Registration
        "addObserver(_:forKeyPath:options:context:)": { m, r, a in try addObserver(m, r, a[0], a[1], a[2], a[3]) },
        "addObserver(_:forKeyPath:options:)": { m, r, a in try addObserver(m, r, a[0], a[1], a[2], .null) },
        "addObserver(_:forKeyPath:context:)": { m, r, a in try addObserver(m, r, a[0], a[1], .array([]), a[2]) },
        "addObserver(_:forKeyPath:)": { m, r, a in try addObserver(m, r, a[0], a[1], .array([]), .null) },
        "removeObserver(_:forKeyPath:context:)": { m, r, a in
            try m.kvo.removeObserver(
                try object(a[0], "observer"), from: r, keyPath: try string(a[1], "key path"),
                context: .exactly(try context(a[2])), owner: m.receiverOwner)
            return .null
        },
        "removeObserver(_:forKeyPath:)": { m, r, a in
            try m.kvo.removeObserver(
                try object(a[0], "observer"), from: r, keyPath: try string(a[1], "key path"),
                context: .any, owner: m.receiverOwner)
            return .null
        },
        // Manual notification
        "willChangeValue(forKey:)": { m, r, a in
            try m.kvo.willChange(try object(r, "receiver"), key: try string(a[0], "key"))
            return .null
        },
        "didChangeValue(forKey:)": { m, r, a in
            try m.kvo.didChange(try object(r, "receiver"), key: try string(a[0], "key"))
            return .null
        },
        "willChange(_:valuesAt:forKey:)": { m, r, a in
            try m.kvo.willChange(
                try object(r, "receiver"), key: try string(a[2], "key"), .ordered(try kind(a[0]), try indexes(a[1])))
            return .null
        },
        "didChange(_:valuesAt:forKey:)": { m, r, a in
            try m.kvo.didChange(try object(r, "receiver"), key: try string(a[2], "key"))
            return .null
        },
        "willChangeValue(forKey:withSetMutation:using:)": { m, r, a in
            try m.kvo.willChangeSet(
                try object(r, "receiver"), key: try string(a[0], "key"), try mutation(a[1]), try valueSet(a[2]))
            return .null
        },
        "didChangeValue(forKey:withSetMutation:using:)": { m, r, a in
            try m.kvo.didChange(try object(r, "receiver"), key: try string(a[0], "key"))
            return .null
        },
        // Proxies
        "mutableArrayValue(forKey:)": { m, r, a in .arrayProxy(try alive(m, r), keyPath: try string(a[0], "key")) },
        "mutableArrayValue(forKeyPath:)": { m, r, a in
            .arrayProxy(try alive(m, r), keyPath: try string(a[0], "key path"))
        },
        "mutableSetValue(forKey:)": { m, r, a in .setProxy(try alive(m, r), keyPath: try string(a[0], "key")) },
        "mutableSetValue(forKeyPath:)": { m, r, a in .setProxy(try alive(m, r), keyPath: try string(a[0], "key path"))
        },
        "add(_:)": { m, r, a in
            switch r {
            case .setProxy(let o, let path): try m.kvo.mutateSet(o, keyPath: path, .union, ValueSet([a[0]]))
            default:
                let (o, path, count) = try arrayProxy(m, r)
                try m.kvo.mutateArray(o, keyPath: path, .insert([a[0]], at: [count]))
            }
            return .null
        },
        "insert(_:at:)": { m, r, a in
            let (o, path, initialCount) = try arrayProxy(m, r)
            if case .array(let values) = a[0], case .array = a[1] {
                let positions = try indexes(a[1])
                guard positions.count == values.count else {
                    throw m.kvo.exception(
                        (
                            Exceptions.invalidArgument,
                            "*** -[NSMutableArray insertObjects:atIndexes:]: count of array (\(values.count)) differs from count of index set (\(positions.count))"
                        ))
                }
                var count = initialCount
                for position in positions {
                    if position > count {
                        throw m.kvo.exception(
                            Exceptions.beyondBounds("insertObjects:atIndexes:", index: position, count: count))
                    }
                    count += 1
                }
                try m.kvo.mutateArray(o, keyPath: path, .insert(values.values, at: positions))
            } else {
                let position = try int(a[1], "index")
                if position < 0 || position > initialCount {
                    throw m.kvo.exception(
                        Exceptions.beyondBounds("insertObject:atIndex:", index: position, count: initialCount))
                }
                try m.kvo.mutateArray(o, keyPath: path, .insert([a[0]], at: [position]))
            }
            return .null
        },
        "removeObject(at:)": { m, r, a in
            let (o, path, count) = try arrayProxy(m, r)
            let position = try int(a[0], "index")
            guard (0..<count).contains(position) else {
                throw m.kvo.exception(Exceptions.beyondBounds("removeObjectAtIndex:", index: position, count: count))
            }
            try m.kvo.mutateArray(o, keyPath: path, .remove(at: [position]))
            return .null
        },
        "removeObjects(at:)": { m, r, a in
            let (o, path, count) = try arrayProxy(m, r)
            let positions = try indexes(a[0])
            if let bad = positions.first(where: { !(0..<count).contains($0) }) {
                throw m.kvo.exception(Exceptions.beyondBounds("removeObjectsAtIndexes:", index: bad, count: count))
            }
            try m.kvo.mutateArray(o, keyPath: path, .remove(at: positions))
            return .null
        },
        "removeLastObject()": { m, r, _ in
            let (o, path, count) = try arrayProxy(m, r)
            guard count > 0 else {
                throw m.kvo.exception(Exceptions.beyondBounds("removeObjectAtIndex:", index: -1, count: 0))
            }
            try m.kvo.mutateArray(o, keyPath: path, .remove(at: [count - 1]))
            return .null
        },
        "remove(_:)": { m, r, a in
            switch r {
            case .setProxy(let o, let path): try m.kvo.mutateSet(o, keyPath: path, .minus, ValueSet([a[0]]))
            default:
                try removeEach(m, r, matching: a[0])
            }
            return .null
        },
        "removeAllObjects()": { m, r, _ in
            switch r {
            case .setProxy(let o, let path):
                guard case .set(let current) = try m.kvo.proxyContents(r) else { return .null }
                try m.kvo.mutateSet(o, keyPath: path, .minus, current)
            default:
                try removeEach(m, r, matching: nil)
            }
            return .null
        },
        "replaceObject(at:with:)": { m, r, a in
            try replace(r, at: a[0], with: a[1], m)
            return .null
        },
        "union(_:)": { m, r, a in try setMutation(m, r, .union, a[0]) },
        "minus(_:)": { m, r, a in try setMutation(m, r, .minus, a[0]) },
        "intersect(_:)": { m, r, a in try setMutation(m, r, .intersect, a[0]) },
        "setSet(_:)": { m, r, a in try setMutation(m, r, .set, a[0]) },
        // Collections
        "contains(_:)": { m, r, a in
            switch try m.kvo.proxyContents(r) {
            case .array(let elements): return .bool(elements.contains(a[0]))
            case .set(let set): return .bool(set.contains(a[0]))
            case .string(let text):
                guard case .string(let part) = a[0] else { return .bool(false) }
                return .bool(text.contains(part))
            default: throw ScriptError.runtime(.containsNeedsCollection(type: r.typeName))
            }
        },
        "object(at:)": { m, r, a in
            guard case .array(let elements) = try m.kvo.proxyContents(r) else {
                throw ScriptError.runtime(.objectAtNeedsArray)
            }
            let position = try int(a[0], "index")
            guard elements.indices.contains(position) else {
                throw m.kvo.exception(Exceptions.beyondBounds("objectAtIndex:", index: position, count: elements.count))
            }
            return elements[position]
        },
    ]

    /// `remove(x)` (`matching` x) and `removeAllObjects()` (nil) on an array
    /// proxy: NSMutableArray's loops over `removeObjectAtIndex:`, from the
    /// last index of the contents they start with down to 0, so each removal
    /// is a notification of its own, highest index first (SPEC §6.3). Each
    /// step reads the contents as they are then (a handler may have changed
    /// them), as `objectAtIndex:` would.
    static func removeEach(_ m: Machine, _ r: Value, matching target: Value?) throws {
        var (receiver, keyPath, elements) = try arrayProxyContents(m, r)
        let count = elements.count
        // Nobody observes the array's owner: no notification, no handler, so
        // one pass gives the same array without shifting it once per index
        // (200,000 removals from 400,000 elements took minutes).
        if try m.kvo.proxyTarget(receiver, keyPath: keyPath).0.observationInfo == nil {
            let positions = target.map { target in elements.indices.filter { elements[$0] == target } }
            guard positions?.isEmpty != true, count > 0 else { return }
            // Let go first: the mutation then changes the array in place.
            elements = PackedArray()
            try m.kvo.mutateArray(receiver, keyPath: keyPath, .remove(at: positions ?? Array(0..<count)))
            return
        }
        for position in stride(from: count - 1, through: 0, by: -1) {
            // The contents are let go before the mutation, which then
            // changes the array in place instead of copying it.
            let (o, path, current): (KVOObject, String, Value?) = try {
                let (o, path, elements) = try arrayProxyContents(m, r)
                return (o, path, position < elements.count ? elements[position] : nil)
            }()
            guard let current else {
                let now = try arrayProxy(m, r).2
                let selector = target == nil ? "removeObjectAtIndex:" : "objectAtIndex:"
                throw m.kvo.exception(Exceptions.beyondBounds(selector, index: position, count: now))
            }
            if let target, !(current == target) { continue }
            try m.kvo.mutateArray(o, keyPath: path, .remove(at: [position]))
        }
    }

    // MARK: Argument conversions

    static func string(_ value: Value, _ what: String) throws -> String {
        guard case .string(let text) = value else {
            throw ScriptError.runtime(
                .expectedString(what: what, type: value.typeName, value: value.diagnosticDescription))
        }
        return text
    }

    static func int(_ value: Value, _ what: String) throws -> Int {
        guard case .int(let number) = value else {
            throw ScriptError.runtime(.expectedInt(what: what, type: value.typeName))
        }
        return number
    }

    static func object(_ value: Value, _ what: String) throws -> KVOObject {
        guard case .object(let object) = value else {
            throw ScriptError.runtime(
                .expectedObject(what: what, type: value.typeName, value: value.diagnosticDescription))
        }
        return object
    }

    static func alive(_ machine: Machine, _ value: Value) throws -> KVOObject {
        let target = try object(value, "receiver")
        try target.checkAlive()
        return target
    }

    static func context(_ value: Value) throws -> Context? {
        switch value {
        case .null: return nil
        case .context(let context): return context
        default:
            throw ScriptError.runtime(.contextNotDeclared(type: value.typeName))
        }
    }

    static func options(_ value: Value) throws -> ObservingOptions {
        switch value {
        case .option(let options): return options
        case .array(let values):
            var options: ObservingOptions = []
            for item in values {
                guard case .option(let option) = item else {
                    throw ScriptError.runtime(.unknownOption(type: item.typeName))
                }
                options.formUnion(option)
            }
            return options
        case .null: return []
        default: throw ScriptError.runtime(.optionsNotArray(type: value.typeName))
        }
    }

    static func kind(_ value: Value) throws -> Change.Kind {
        guard case .int(let raw) = value, let kind = Change.Kind(rawValue: raw) else {
            throw ScriptError.runtime(.unknownChangeKind)
        }
        return kind
    }

    static func mutation(_ value: Value) throws -> SetMutation {
        guard case .setMutation(let mutation) = value else {
            throw ScriptError.runtime(.unknownSetMutation)
        }
        return mutation
    }

    /// An index set: sorted, without duplicates.
    static func indexes(_ value: Value) throws -> [Int] {
        switch value {
        case .int(let index): return [index]
        case .array(let values):
            let numbers = try values.map { try int($0, "index") }
            if let negative = numbers.first(where: { $0 < 0 }) {
                // NSIndexSet holds unsigned indexes: a negative one is NSNotFound territory.
                throw ScriptError.exception(
                    CocoaException(
                        name: Exceptions.range,
                        reason:
                            "*** -[NSIndexSet initWithIndexesInRange:]: Range {\(UInt(bitPattern: negative)), 1} exceeds maximum index value of NSNotFound - 1"
                    ))
            }
            return Array(Set(numbers)).sorted()
        default: throw ScriptError.runtime(.indexesNotArray(type: value.typeName))
        }
    }

    static func valueSet(_ value: Value) throws -> ValueSet {
        switch value {
        case .set(let set): return set
        case .array(let values): return ValueSet(values)
        case .setProxy, .arrayProxy: return try valueSet(try proxyless(value))
        default: throw ScriptError.runtime(.expectedObjects(type: value.typeName))
        }
    }

    private static func proxyless(_ value: Value) throws -> Value {
        throw ScriptError.runtime(.proxyNotAllowed)
    }

    static func addObserver(
        _ machine: Machine, _ receiver: Value, _ observer: Value, _ keyPath: Value, _ options: Value, _ context: Value
    ) throws -> Value {
        try machine.kvo.addObserver(
            try object(observer, "observer"), to: receiver, keyPath: try string(keyPath, "key path"),
            options: try Self.options(options), context: try Self.context(context),
            owner: machine.receiverOwner)
        return .null
    }

    /// What `value(forKey:)` hands back: KVC boxes a BOOL as an NSNumber,
    /// which prints `1` / `0` (a Bool property prints `true` only when read
    /// through its accessor).
    static func kvcResult(_ value: Value) -> Value {
        if case .bool(let flag) = value { return .int(flag ? 1 : 0) }
        return value
    }

    /// A proxy's owner, key path and element count. Only the count: the
    /// contents held across the mutation that follows would be a second
    /// holder of the array's storage, which the mutation would then copy
    /// (B6's 100,000 `add`s, quadratic).
    static func arrayProxy(_ machine: Machine, _ receiver: Value) throws -> (KVOObject, String, Int) {
        let (owner, path, elements) = try arrayProxyContents(machine, receiver)
        return (owner, path, elements.count)
    }

    /// A proxy's owner, key path and contents.
    static func arrayProxyContents(_ machine: Machine, _ receiver: Value) throws -> (KVOObject, String, PackedArray) {
        guard case .arrayProxy(let owner, let path) = receiver else {
            throw ScriptError.runtime(.needsArrayProxy(type: receiver.typeName))
        }
        guard case .array(let elements) = try machine.kvo.proxyContents(receiver) else {
            return (owner, path, PackedArray())
        }
        return (owner, path, elements)
    }

    static func replace(_ receiver: Value, at position: Value, with value: Value, _ machine: Machine) throws {
        let (owner, path, count) = try arrayProxy(machine, receiver)
        let index = try int(position, "index")
        guard (0..<count).contains(index) else {
            throw machine.kvo.exception(
                Exceptions.beyondBounds("replaceObjectAtIndex:withObject:", index: index, count: count))
        }
        try machine.kvo.mutateArray(owner, keyPath: path, .replace(at: [index], with: [value]))
    }

    static func setMutation(
        _ machine: Machine, _ receiver: Value, _ mutation: SetMutation, _ objects: Value
    ) throws -> Value {
        guard case .setProxy(let owner, let path) = receiver else {
            throw ScriptError.runtime(.needsSetProxy(type: receiver.typeName))
        }
        try machine.kvo.mutateSet(owner, keyPath: path, mutation, try valueSet(objects))
        return .null
    }
}
