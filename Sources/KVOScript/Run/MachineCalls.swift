import KVOCore

/// What compiled code calls on the machine: method dispatch, accessor calls
/// and their checks, `self`. The compiler emits closures that call these;
/// they live here, with the machine, so that nothing in `Run/` calls into
/// `Compile/` (the arrow runs Compile → Run only).
extension Machine {
    /// What every accessor call checks before running its body: the depth
    /// limit, a deallocated receiver, the native stack.
    @inline(__always)
    func checkAccessorCall(_ name: String, on object: KVOObject) throws {
        guard callDepth < kvo.maxDepth else {
            throw ScriptError.runtime(.accessorCallsTooDeep(maxDepth: kvo.maxDepth, accessor: name))
        }
        if object.isReleased {
            throw ScriptError.runtime(
                .messageToDeallocated(className: object.cls.name, selector: name, instance: object.description))
        }
        try kvo.stackGuard.check("accessor calls")
    }

    /// `self`'s stored property in `slot`, as `get` reads it.
    @inline(__always)
    func ownSlot(_ slot: Int) throws -> Value {
        try withSelf { object in
            try object.checkAlive()
            return object[slot: slot]
        }
    }

    /// A getter body of `self`'s own computed property, run in place: the
    /// checks and the depth of `get` plus `invokeGetter`, with no `self` to
    /// swap.
    @inline(__always)
    func ownGetter<Result>(_ name: String, _ body: (Machine) throws -> Result) throws -> Result {
        try withSelf { object in
            try object.checkAlive()
            try checkAccessorCall(name, on: object)
            callDepth += 1
            defer { callDepth -= 1 }
            return try body(self)
        }
    }

    /// Runs a compiled accessor body (a getter, or a setter with its `newValue`)
    /// as a call of its own.
    func invokeBody(
        frameSize: Int, selfObject: KVOObject, argument: Value?, name: String, _ body: (Machine) throws -> Value
    ) throws -> Value {
        try checkAccessorCall(name, on: selfObject)
        let newBase = stack.count
        if let argument { stack.append(argument) }
        return try inFrame(base: newBase, size: frameSize, selfObject: selfObject, body)
    }

    /// Runs a getter body that has no locals: `invokeBody` without the frame.
    func invokeGetter(selfObject newSelf: KVOObject, name: String, _ body: (Machine) throws -> Value) throws -> Value {
        try checkAccessorCall(name, on: newSelf)
        let outer = enterSelf(newSelf)
        callDepth += 1
        defer {
            restoreSelf(outer)
            callDepth -= 1
        }
        return try body(self)
    }

    func method(of object: KVOObject, _ name: String) -> FunctionBox? {
        classes[ObjectIdentifier(object.cls)]?.method(name)
    }

    /// Calls a method on an object; a setter method (`setColor(v)`, whose
    /// key is `notifying`) runs inside will/did for its key, as KVO's
    /// overridden setter does.
    func invokeMethod(
        _ box: FunctionBox, on object: KVOObject, arguments: [Value], notifying key: String?
    ) throws
        -> Value
    {
        guard let key, box.parameters.count == 1, object.observationInfo != nil else {
            return try invoke(box, selfObject: object, arguments: arguments)
        }
        var result = Value.null
        try kvo.notifyingAutomatically(object, key: key) {
            result = try invoke(box, selfObject: object, arguments: arguments)
        }
        return result
    }

    func selfValue() throws -> Value {
        guard let object = selfObject else { throw ScriptError.runtime(.selfUnavailable) }
        return .object(object)
    }

    /// Ends a line a `print(…, terminator:)` left open.
    func endPendingPrint() {
        guard let pending = pendingPrint else { return }
        pendingPrint = nil
        emit(.print(text: pending, depth: 0))
    }

    /// A new instance of `info`'s class, built by `build` (its initial
    /// values, then the labels' sets or its `init`) before anyone can observe
    /// it: with `--explain`, nothing done to it until then is worth a line.
    /// Both ways of constructing an object go through it.
    @inline(__always)
    func construct(_ info: ClassInfo, name: String?, _ build: (KVOObject) throws -> Void) throws -> Value {
        let object = kvo.makeObject(info, name: name)
        let quiet = kvo.explains && kvo.initializing.insert(ObjectIdentifier(object)).inserted
        defer { if quiet { kvo.initializing.remove(ObjectIdentifier(object)) } }
        try build(object)
        return .object(object)
    }

    /// Runs the initial values of a new instance of `cls` (its
    /// superclasses' first) that are not constants, handing each stored
    /// property's value to `store`. They run code, which may create objects
    /// in turn (`var next = Node(v: 2)` inside Node): bounded like calls, by
    /// the depth limit and the native stack, with or without an `init`
    /// (without the bound, a class with an `init` recursed until the process
    /// crashed).
    @inline(__always)
    func runInitialValues(of cls: ScriptClass, _ store: (PropertyInfo, Value) throws -> Void) throws {
        let initializers = cls.allInitializers
        guard !initializers.isEmpty else { return }
        guard callDepth < kvo.maxDepth else {
            throw ScriptError.runtime(.initialValuesTooDeep(maxDepth: kvo.maxDepth, className: cls.info.name))
        }
        try kvo.stackGuard.check("initial values")
        callDepth += 1
        defer { callDepth -= 1 }
        for (property, initial) in initializers where property.slot != nil {
            try store(property, try initial(self))
        }
    }
}
