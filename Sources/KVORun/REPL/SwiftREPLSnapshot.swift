import KVOOutput
import KVOScript
import RewriterProtocol

/// What a Swift session holds after its last accepted entry (SPEC §10.1):
/// the state the run that kept the entry wrote as the entry ended (the
/// runtime's objects, classes and graph, `ProgramChannel.REPLState`) and
/// what the entries declare (the rewriter's reading, `REPLDeclarations`).
/// `:objects`, `:classes`, `:graph` and Tab completion read it: nothing runs
/// again for them, so they show exactly what that run held.
struct SwiftREPLSnapshot {
    /// nil when the run kept its entry but its state could not be read back.
    let state: ProgramChannel.REPLState?
    let declarations: REPLDeclarations

    /// `:objects`: the objects bound to names, as the scenario REPL lists them.
    var objectSummary: [ObjectSummary] {
        (state?.objects ?? []).map { object in
            let observed: ObjectSummary.State
            switch object.observances {
            case nil: observed = .released
            case 0?: observed = .notObserved
            case let count?: observed = .observed(observances: count)
            }
            return ObjectSummary(name: object.name, description: object.description, state: observed)
        }
    }

    /// `:classes`: the program's classes, each with the properties it and
    /// the program's classes above it declare, and what makes one of them
    /// invisible or silent to KVO.
    var classSummary: [ClassSummary] {
        let classes = state?.classes ?? []
        return classes.filter(\.declared).sorted { $0.name < $1.name }.map { cls in
            ClassSummary(
                name: cls.name, superclass: cls.superclass ?? "NSObject",
                properties: properties(of: cls.name, declaredOnly: true).map { property in
                    let note = property.objc ? (property.dynamic ? "" : " (not dynamic)") : " (not @objc)"
                    return ClassSummary.Property(name: property.name, type: property.type + note)
                })
        }
    }

    /// The observation graph (DOT) as `kvo-run graph` draws the program.
    var graph: String? { state?.graph }

    func cls(named name: String) -> ProgramChannel.REPLState.Class? {
        state?.classes.first { $0.name == name }
    }

    /// A class's properties, its superclasses' first (an override in the
    /// place of the property it overrides); `declaredOnly` leaves out those
    /// of the runtime's classes (`Operation`'s, for an operation subclass).
    func properties(of className: String, declaredOnly: Bool = false) -> [ProgramChannel.REPLState.Property] {
        var lineage: [ProgramChannel.REPLState.Class] = []
        var next = cls(named: className)
        while let current = next, !lineage.contains(where: { $0.name == current.name }) {
            if !declaredOnly || current.declared { lineage.append(current) }
            next = current.superclass.flatMap { cls(named: $0) }
        }
        var result: [ProgramChannel.REPLState.Property] = []
        for current in lineage.reversed() {
            for property in current.properties {
                if let index = result.firstIndex(where: { $0.name == property.name }) {
                    result[index] = property
                } else {
                    result.append(property)
                }
            }
        }
        return result
    }

    /// The class of the object a top-level variable holds, else the type
    /// its declaration says.
    func typeName(ofVariable name: String) -> String? {
        state?.objects.first { $0.name == name }?.className ?? declarations.variableTypes[name]
    }
}
