import KVOCore

/// Where the checker put each name, for the code generator: the binding a
/// use of a variable refers to, and the one each declaration creates, keyed
/// by the source location of the identifier or the declaring statement
/// (unique within one program). Frame sizes of bodies are keyed by the
/// location of their declaration.
struct Resolutions {
    var bindings: [SourceLocation: Binding] = [:]
    var frameSizes: [SourceLocation: Int] = [:]
}

extension Resolutions {
    /// Where the frame sizes of a property's observers are recorded: past any
    /// real column of its line.
    static func willSetKey(_ decl: PropertyDecl) -> SourceLocation {
        SourceLocation(line: decl.location.line, column: -1)
    }

    static func didSetKey(_ decl: PropertyDecl) -> SourceLocation {
        SourceLocation(line: decl.location.line, column: -2)
    }
}
