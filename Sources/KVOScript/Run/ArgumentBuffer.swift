import KVOCore

/// The argument array of one builtin call site, kept from call to call:
/// 100,000 `addObserver` calls would otherwise allocate and free 100,000
/// arrays. A call is handed the array and gives it back emptied; a call that
/// starts at the same site while one is running (a handler run by `.initial`)
/// finds none and builds its own.
final class ArgumentBuffer {
    private var spare: [Value] = []

    func call<Result>(_ evals: ArgumentEvals, _ machine: Machine, _ body: ([Value]) throws -> Result) throws -> Result {
        var arguments: [Value] = []
        swap(&arguments, &spare)
        defer {
            arguments.removeAllKeepingCapacity()
            swap(&arguments, &spare)
        }
        try evals.forEach { arguments.append(try $0(machine)) }
        return try body(arguments)
    }
}
