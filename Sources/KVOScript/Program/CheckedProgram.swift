import KVOCore

/// What the checker hands the compiler for a program it accepted: the
/// environment with the program's declarations, where each name resolved,
/// and the classes and functions declared (with empty bodies to compile).
struct CheckedProgram {
    let environment: Environment
    let resolutions: Resolutions
    let classes: [(ClassDecl, ScriptClass)]
    let functions: [(FunctionDecl, FunctionBox)]
}
