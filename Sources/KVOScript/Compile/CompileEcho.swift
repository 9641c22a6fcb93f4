import KVOCore

extension Compiler {
    /// A top-level expression statement whose exec returns the expression's
    /// value, so that the REPL can echo it; counted and located like any statement.
    func compileEchoed(_ expr: Expr, at location: SourceLocation) -> Exec {
        let eval = compileExpr(expr).eval
        return counted({ machine in try eval(machine) }, at: location)
    }
}
