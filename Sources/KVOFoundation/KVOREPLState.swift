import KVOCore
import KVOOutput

/// The REPL's state as its new entry ends (KVOOutput's
/// `ProgramChannel.REPLState`): what `:objects`, `:classes`, `:graph` and
/// Tab completion show of a Swift session. Made only when kvo-run asks for
/// it (`REPL.stateFile`): a program run from a file records nothing here.
final class _KVOREPLState {
    /// A property as its class's table described it; its type is kept as
    /// the type itself and spelled only when the state is written.
    private struct Property {
        let name: String
        let type: Any.Type
        let objc: Bool
        let dynamic: Bool
    }

    let path: String
    /// Each described class's own properties, in order, by engine class.
    private var properties: [ObjectIdentifier: [Property]] = [:]

    init(path: String) {
        self.path = path
    }

    /// A class's table describes a property (`_KVOClassTable.property`);
    /// an override replaces the one of the same name, as the engine's does.
    func record(_ info: ClassInfo, _ name: String, type: Any.Type, objc: Bool, dynamic: Bool) {
        let property = Property(name: name, type: type, objc: objc, dynamic: dynamic)
        var own = properties[ObjectIdentifier(info)] ?? []
        if let index = own.firstIndex(where: { $0.name == name }) {
            own[index] = property
        } else {
            own.append(property)
        }
        properties[ObjectIdentifier(info)] = own
    }

    /// Writes the state, the runtime's lock held. `declared` are the
    /// program's top-level classes (the rewriter lists them): described
    /// here if no object of theirs was made yet, so that `:classes` lists a
    /// class as soon as it is declared. Describing a class runs none of the
    /// program's code (its `_kvoDescribe` only fills the table).
    func write(declared: [AnyObject.Type], process: _KVOProcess) {
        let declaredClasses = declared.compactMap { ($0 as? NSObject.Type).map { process.classInfo(for: $0) } }
        let objects = process.boundObjects()
        var state = ProgramChannel.REPLState()
        state.objects = objects.map { object in
            ProgramChannel.REPLState.Object(
                name: object.name, className: object.cls.name, description: object.description,
                observances: object.isReleased ? nil : object.observationInfo?.count ?? 0)
        }
        // The declared classes, the bound objects' classes, and their superclasses.
        var seen: Set<ObjectIdentifier> = []
        var classes: [ClassInfo] = []
        for start in declaredClasses + objects.map(\.cls) {
            var next: ClassInfo? = start
            while let cls = next, seen.insert(ObjectIdentifier(cls)).inserted {
                classes.append(cls)
                next = cls.superclass
            }
        }
        state.classes = classes.map { cls in
            ProgramChannel.REPLState.Class(
                name: cls.name, superclass: cls.superclass?.name, declared: Self.isProgramClass(cls),
                properties: (properties[ObjectIdentifier(cls)] ?? []).map {
                    ProgramChannel.REPLState.Property(
                        name: $0.name, type: Self.spelled(_typeName($0.type, qualified: false)), objc: $0.objc,
                        dynamic: $0.dynamic)
                })
        }
        state.graph = process.observationGraph()
        _KVORunReport.write(state.encoded, to: path)
    }

    /// A class of the program, not of the runtime: `classInfo(for:)` gives
    /// a program's class its qualified Swift name (`main.Account`) as its
    /// Objective-C name, and the runtime's classes Objective-C's own
    /// (`NSProgress`), which has no dot.
    static func isProgramClass(_ cls: ClassInfo) -> Bool {
        cls.runtimeName.contains(".")
    }

    /// A type as Swift code writes it: `Optional<Account>` is `Account?`,
    /// `Array<Int>` `[Int]`, `Dictionary<String, Int>` `[String: Int]`, at
    /// every depth (`_typeName` spells the generic types out).
    static func spelled(_ name: String) -> String {
        guard let open = name.firstIndex(of: "<"), name.last == ">" else { return name }
        let base = String(name[..<open])
        let inner = name[name.index(after: open)..<name.index(before: name.endIndex)]
        // Split the arguments at the commas outside nested brackets.
        var arguments: [String] = []
        var depth = 0
        var current = ""
        for character in inner {
            switch character {
            case "<", "(", "[": depth += 1
            case ">", ")", "]": depth -= 1
            default: break
            }
            if character == "," && depth == 0 {
                arguments.append(current)
                current = ""
            } else if character != " " || !current.isEmpty {
                current.append(character)
            }
        }
        arguments.append(current)
        let spelledArguments = arguments.map(spelled)
        switch (base, spelledArguments.count) {
        case ("Optional", 1):
            // A function type needs brackets before `?`.
            let wrapped = spelledArguments[0]
            return (wrapped.contains("->") ? "(" + wrapped + ")" : wrapped) + "?"
        case ("Array", 1): return "[" + spelledArguments[0] + "]"
        case ("Dictionary", 2): return "[" + spelledArguments[0] + ": " + spelledArguments[1] + "]"
        default: return base + "<" + spelledArguments.joined(separator: ", ") + ">"
        }
    }
}
