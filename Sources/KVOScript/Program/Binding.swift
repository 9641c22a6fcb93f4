import KVOCore

/// What a name means, resolved once by the checker.
enum Binding {
    case global(Int, isLet: Bool, type: ScriptClass?)
    case local(Int, isLet: Bool, type: ScriptClass?)
    case context(Context)
    case function(FunctionBox)
    case classRef(ScriptClass)
}
