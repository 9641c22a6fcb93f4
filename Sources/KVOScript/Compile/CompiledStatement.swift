import KVOCore

/// A top-level statement ready to run.
struct CompiledStatement {
    let exec: Exec
    let location: SourceLocation
    /// The top-level name a `let` or `var` binds, for the REPL to take back
    /// when its initializer fails.
    var declares: (name: String, binding: Binding)?
    /// An expression statement compiled to return its value (the REPL echoes it).
    var echoes = false
    /// Its value is echoed even when nil (`acct.observationInfo` echoes
    /// `nil`); not for a call, whose nil is what a function that returns
    /// nothing returns.
    var echoesNil = false
}

/// Compiled code kept in arrays is wrapped in a struct: an array of bare
/// closures stores them at the most general abstraction level, and each call
/// would then go through a reabstraction thunk.
struct ExecBox {
    let exec: Exec
}

/// An expression's closure kept in an array (see `ExecBox`).
struct EvalBox {
    let eval: Eval
}
