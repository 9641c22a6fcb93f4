import KVOCore

/// Compiled code: the compiler turns each expression into an `Eval` and each
/// statement into an `Exec`, with names already resolved to slots, so running
/// never looks a name up by string.
///
/// The declarations here (`FunctionBox`, `ScriptClass`) hold the slots the
/// compiler fills and the machine runs, so their type names `Machine`, which
/// is the one name of `Run/` the program's vocabulary holds: the checker only
/// declares the slots empty; the compiler fills them; the machine calls them.
typealias Eval = (Machine) throws -> Value
/// Returns nil to carry on, or the value of a `return`.
typealias Exec = (Machine) throws -> Value?
