import KVOCore

/// A computed property's getter body once compiled (nil before, or when it
/// has locals). A getter that reads a computed property of its own `self`
/// (`color` reading `redComponent`) runs this body directly: same `self`, so
/// no call through KVC and no `self` to swap.
final class GetterBody {
    let name: String
    /// The body as written, and the class it is declared in: whether it is
    /// pure (PureGetter.swift) is worked out from them.
    let computed: Expr
    let cls: ScriptClass
    /// Known to be pure (PureGetter.swift); nil while not known.
    var purity: Purity?
    var eval: Eval?
    /// The unboxed form, for a body of Double arithmetic (CompileDouble.swift).
    var unboxed: UnboxedGetter?

    init(name: String, computed: Expr, in cls: ScriptClass) {
        self.name = name
        self.computed = computed
        self.cls = cls
    }
}
