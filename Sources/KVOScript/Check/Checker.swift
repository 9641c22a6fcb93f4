import KVOCore

/// The first half of compiling: declares a program's classes, functions and
/// contexts, resolves every name against the scopes in force, and reports
/// every problem, on the whole program, before any code is generated. So no
/// check depends on the order in which bodies are compiled, and a program
/// with errors changes nothing: the environment it declares into is a copy.
///
/// Classes are declared here as engine classes (`ClassInfo`) with their
/// properties and methods, whose code the `Compiler` fills in later; nothing
/// else refers to them until the session adopts the environment.
final class Checker {
    var environment: Environment
    private(set) var diagnostics: [Diagnostic] = []
    var resolutions = Resolutions()
    /// Classes and functions this program declares, for the compiler.
    var declaredClasses: [(ClassDecl, ScriptClass)] = []
    private(set) var declaredFunctions: [(FunctionDecl, FunctionBox)] = []

    /// Block scopes inside the code being checked (innermost last).
    var scopes: [[String: Binding]] = []
    /// The function, method or accessor being checked; nil at top level.
    var function: FunctionState?
    /// Classes declared by this program, for suggestions before they exist.
    var batchClassNames: [String] = []
    /// Bodies checked once every top-level statement is: they may use
    /// globals declared after them.
    var pendingBodies: [() -> Void] = []
    /// How many `do` blocks around the code being checked catch each
    /// exception name ("" for a catch-all): an unknown key whose exception
    /// is caught is expected there, not a typo.
    var catching: [String: Int] = [:]
    /// Keys the program posts by hand (`willChangeValue(forKey: "k")`,
    /// `didChangeValue`…, in any body): a key a class lacks but the program
    /// posts is its own, not a typo, so the unknown-key warnings about it
    /// (`unknownKeyWarnings`, where they are) are taken back once all is checked.
    var manuallyPostedKeys: Set<String> = []
    var unknownKeyWarnings: [(key: String, location: SourceLocation)] = []
    /// The REPL: a class, function or context an earlier entry declared may
    /// be declared again, and the new one replaces it for what follows (as in
    /// Swift's and Python's REPLs; objects already made keep their class).
    /// Twice in one entry, or in a file, it stays an error.
    var replacesEarlierDeclarations = false
    /// Global names this program declares, so that a second declaration of
    /// one is an error even where an earlier entry's may be replaced.
    private var declaredHere: [String: SourceLocation] = [:]

    struct FunctionState {
        var nextSlot = 0
        let cls: ScriptClass?
        let isStatic: Bool
        let name: String
        /// Inside an accessor or initial value (no `return`).
        let isAccessor: Bool
    }

    init(environment: Environment) {
        self.environment = environment
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The program as checked, for the compiler.
    var checked: CheckedProgram {
        CheckedProgram(
            environment: environment, resolutions: resolutions, classes: declaredClasses,
            functions: declaredFunctions)
    }

    func error(_ message: CheckerMessage, at location: SourceLocation, length: Int = 1) {
        diagnostics.append(Diagnostic(.error, message, at: location, length: length))
    }

    func warning(_ message: CheckerMessage, at location: SourceLocation, length: Int = 1) {
        diagnostics.append(Diagnostic(.warning, message, at: location, length: length))
    }

    // MARK: Programs

    /// Checks a scenario or a REPL entry. Declarations are hoisted: classes,
    /// contexts and functions may be used before the line that declares them.
    func check(_ statements: [Stmt]) {
        checkImports(statements)
        hoist(statements)
        for statement in statements {
            switch statement {
            case .classDecl, .function, .context, .importModule: continue
            default: checkStatement(statement, topLevel: true)
            }
        }
        while !pendingBodies.isEmpty {
            let bodies = pendingBodies
            pendingBodies = []
            for body in bodies { body() }
        }
        withdrawWarningsAboutPostedKeys()
    }

    private func withdrawWarningsAboutPostedKeys() {
        let withdrawn = unknownKeyWarnings.filter { manuallyPostedKeys.contains($0.key) }.map(\.location)
        guard !withdrawn.isEmpty else { return }
        let id = CheckerMessage.noKey(className: "", key: "", suggestion: "", consequence: "").id
        diagnostics.removeAll { $0.severity == .warning && $0.id == id && withdrawn.contains($0.location) }
    }

    private func hoist(_ statements: [Stmt]) {
        var classDecls: [ClassDecl] = []
        for statement in statements {
            switch statement {
            case .context(let name, let location):
                guard declareGlobalName(name, at: location) else { continue }
                environment.globalNames[name] = .context(Context(name: name))
            case .function(let decl):
                guard declareGlobalName(decl.name, at: decl.location) else { continue }
                let box = FunctionBox(
                    name: decl.name, parameters: decl.parameters, isStatic: false, location: decl.location)
                environment.globalNames[decl.name] = .function(box)
                declaredFunctions.append((decl, box))
                pendingBodies.append { [unowned self] in self.checkBody(decl, cls: nil) }
            case .classDecl(let decl):
                classDecls.append(decl)
            default:
                continue
            }
        }
        declareClasses(classDecls)
    }

    static let reservedNames: Set<String> = ["print", "assert", "type", "object_getClass", "NSObject", "error"]

    func declareGlobalName(_ name: String, at location: SourceLocation) -> Bool {
        if Self.reservedNames.contains(name) {
            error(.builtinName(name), at: location, length: name.count)
            return false
        }
        if let earlier = declaredHere[name] {
            error(.alreadyDeclaredAt(name, line: earlier.line), at: location, length: name.count)
            return false
        }
        switch environment.globalNames[name] {
        case .context?, .function?, .classRef?:
            if replacesEarlierDeclarations { break }
            error(.alreadyDeclared(name), at: location, length: name.count)
            return false
        default:
            break
        }
        declaredHere[name] = location
        return true
    }
}
