import KVOCore

/// A computed property's getter body once compiled (nil before, or when it
/// has locals). A getter that reads a computed property of its own `self`
/// (`color` reading `redComponent`) runs this body directly: same `self`, so
/// no call through KVC and no `self` to swap.
final class GetterBody {
    let name: String
    var eval: Eval?
    /// The unboxed form, for a body of Double arithmetic (CompileDouble.swift).
    var unboxed: UnboxedGetter?

    init(name: String) { self.name = name }
}
