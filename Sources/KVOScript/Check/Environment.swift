import KVOCore

/// What a name means, resolved once by the checker.
enum Binding {
    case global(Int, isLet: Bool, type: ScriptClass?)
    case local(Int, isLet: Bool, type: ScriptClass?)
    case context(Context)
    case function(FunctionBox)
    case classRef(ScriptClass)
}

/// The top-level names of a session: what earlier entries (or the whole
/// file) declared. A value, so that checking an entry works on a copy and a
/// rejected entry leaves the session's untouched (the REPL's
/// all-or-nothing rule).
struct Environment {
    var globalNames: [String: Binding] = [:]
    var classes: [String: ScriptClass] = [:]
    /// Global variable slots handed out so far.
    var globalCount = 0
}

/// Where the checker put each name, for the code generator: the binding a
/// use of a variable refers to, and the one each declaration creates, keyed
/// by the source location of the identifier or the declaring statement
/// (unique within one program). Frame sizes of bodies are keyed by the
/// location of their declaration.
struct Resolutions {
    var bindings: [SourceLocation: Binding] = [:]
    var frameSizes: [SourceLocation: Int] = [:]
}
