import KVOCore

extension Compiler {
    /// A top-level expression statement whose exec returns the expression's
    /// value, so that the REPL can echo it; counted and located like any statement.
    func compileEchoed(_ expr: Expr, at location: SourceLocation) -> Exec {
        let eval = compileExpr(expr).eval
        return { machine in
            try machine.step()
            do {
                return try eval(machine)
            } catch ScriptError.runtime(var failure) where failure.line == nil {
                failure.line = location.line
                failure.column = location.column
                throw ScriptError.runtime(failure)
            }
        }
    }
}
