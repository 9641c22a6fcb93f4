extension KVORuntime {
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
        case .array(let values): elements = values.values
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
                    inners.append(values.values)
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
}
