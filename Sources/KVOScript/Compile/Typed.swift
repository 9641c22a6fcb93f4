import KVOCore

/// An expression compiled to a closure, with its class when known statically
/// (used to check member names before running).
struct Typed {
    let eval: Eval
    let cls: ScriptClass?
    init(_ eval: @escaping Eval, _ cls: ScriptClass? = nil) {
        self.eval = eval
        self.cls = cls
    }
}
