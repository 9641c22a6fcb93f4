import KVOCore

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
