/// What kvo-run asks the rewriter helper (SPEC §11.0) and what it answers.
///
/// The helper is a separate executable compiled on first use against the
/// toolchain's own swift-syntax (`usr/lib/swift/host`), so kvo-run carries no
/// parser. These types are the whole contract between the two: this module
/// is a target of the package (kvo-run's side) and its files are compiled
/// into the helper from source (the helper's side), so both read and write
/// the same types, encoded by `RewriterWire` alone.
public enum RewriterRequest: Equatable, Sendable {
    /// A program file: its text and the name diagnostics give it.
    case rewrite(source: String, fileName: String)
    /// The REPL's program: the entries so far, the last one new.
    case replProgram([REPLEntry])
    /// Whether an entry goes on past its last line (a bracket still open…).
    case isIncomplete(String)
    /// The earlier entries without the declarations a new entry makes again.
    case replacingDeclarations(earlier: [REPLEntry], by: String)
}

public enum RewriterResponse: Equatable, Sendable {
    case rewritten(RewrittenProgram)
    case replProgram(REPLProgram)
    case isIncomplete(Bool)
    case replacingDeclarations(entries: [REPLEntry], replaced: [String])
    /// The helper could not read the request (a different kvo-run build).
    case failed(String)
}

/// Something the rewriter says about a place in the user's source (1-based
/// line and column in Characters, length in UTF-8 bytes).
public struct RewriterRemark: Equatable, Sendable {
    public let message: String
    public let line: Int
    public let column: Int
    public let length: Int

    public init(message: String, line: Int, column: Int, length: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.length = length
    }
}

/// A key path a program writes as a string literal (1-based line and
/// column in Characters, the literal's length in UTF-8 bytes) and the call
/// it is given to (`addObserver`, `removeObserver`, `value`, `setValue`, or
/// `keyPathsForValuesAffecting` for the strings such a method returns).
public struct RewriterKeyPath: Equatable, Sendable {
    public let call: String
    public let path: String
    public let line: Int
    public let column: Int
    public let length: Int

    public init(call: String, path: String, line: Int, column: Int, length: Int) {
        self.call = call
        self.path = path
        self.line = line
        self.column = column
        self.length = length
    }
}

/// A program rewritten to run on the runtime.
public struct RewrittenProgram: Equatable, Sendable {
    /// The program to compile.
    public let source: String
    /// Advice about the program (a property that is not dynamic…).
    public let warnings: [RewriterRemark]
    /// What cannot run here whatever the rewrite (a module Linux does not
    /// have): reported instead of compiling.
    public let errors: [RewriterRemark]
    /// The key paths the program writes as strings, and every key the
    /// program or a modelled Foundation class has: kvo-run warns about a key
    /// none has, with the scenario language's did-you-mean (SPEC §9).
    public let keyPaths: [RewriterKeyPath]
    public let knownKeys: [String]

    public init(
        source: String, warnings: [RewriterRemark], errors: [RewriterRemark], keyPaths: [RewriterKeyPath] = [],
        knownKeys: [String] = []
    ) {
        self.source = source
        self.warnings = warnings
        self.errors = errors
        self.keyPaths = keyPaths
        self.knownKeys = knownKeys
    }
}

/// One REPL entry: its text and the file name its diagnostics give.
public struct REPLEntry: Equatable, Sendable {
    public var text: String
    public var name: String

    public init(text: String, name: String) {
        self.text = text
        self.name = name
    }
}

/// The REPL's entries as one program (SPEC §10.1, §11.0).
public struct REPLProgram: Equatable, Sendable {
    /// The program to compile.
    public let source: String
    /// The entries joined, as the program's lines count them: what the
    /// runtime reads back for the source line of a run-time error.
    public let joined: String
    /// The line of `joined` where each entry starts.
    public let firstLines: [Int]
    /// The rewriter's warnings about the new (last) entry, at its own lines.
    public let warnings: [RewriterRemark]
    /// Why the new entry cannot follow the others, at its own line and
    /// column: Swift reads it as part of the entry before it.
    public let problem: RewriterRemark?
    /// What the entries declare, the new one included: once the REPL keeps
    /// the entry, the names it completes.
    public let declarations: REPLDeclarations

    public init(
        source: String, joined: String, firstLines: [Int], warnings: [RewriterRemark], problem: RewriterRemark?,
        declarations: REPLDeclarations = REPLDeclarations()
    ) {
        self.source = source
        self.joined = joined
        self.firstLines = firstLines
        self.warnings = warnings
        self.problem = problem
        self.declarations = declarations
    }
}

/// What the REPL's entries declare at top level, as Swift's parser reads
/// them (SPEC §10.1): the names Tab completes in a Swift session.
public struct REPLDeclarations: Equatable, Sendable {
    /// Top-level variables, functions and types.
    public var names: [String]
    /// Each type's members, its extensions' included: properties by name,
    /// methods as far as their first argument (`deposit(`, `reset()`,
    /// `move(to: `). Not its static members, initializers or nested types.
    public var members: [String: [String]]
    /// Each class's superclass: the first type it inherits from.
    public var superclasses: [String: String]
    /// A top-level variable's type where its declaration says it: its
    /// annotation, or the program's own type it calls (`let a = Account()`).
    public var variableTypes: [String: String]

    public init(
        names: [String] = [], members: [String: [String]] = [:], superclasses: [String: String] = [:],
        variableTypes: [String: String] = [:]
    ) {
        self.names = names
        self.members = members
        self.superclasses = superclasses
        self.variableTypes = variableTypes
    }
}
