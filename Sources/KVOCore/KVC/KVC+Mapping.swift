extension KVORuntime {
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
                let source: CollectionElements
                var next = 0
                var results: [Value] = []
                let isSet: Bool
            }
            func frame(_ collection: Value) throws -> Frame? {
                switch collection {
                case .array(let elements): return Frame(source: .packed(elements), isSet: false)
                case .set(let set): return Frame(source: .values(set.elements), isSet: true)
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
    func walkNested(
        _ target: Value, entering: (_ count: Int, _ depth: Int) throws -> Void = { _, _ in },
        while keepGoing: () -> Bool = { true }, leaf: (Value) throws -> Void
    ) throws {
        var stack: [(elements: CollectionElements, next: Int)] = []
        func push(_ value: Value) throws -> Bool {
            switch value {
            case .array(let elements): stack.append((.packed(elements), 0))
            case .set(let set): stack.append((.values(set.elements), 0))
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
