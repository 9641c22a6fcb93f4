import KVOCore

/// An expression as parsed; every node knows where it starts.
indirect enum Expr {
    case literal(Value, SourceLocation)
    case interpolation([InterpolationPart], SourceLocation)
    case identifier(String, SourceLocation, length: Int)
    case selfRef(SourceLocation)
    /// `.new`, `.insertion`, `.union`…
    case dotName(String, SourceLocation)
    case arrayLiteral([Expr], SourceLocation)
    /// `[key: value, …]` or `[:]`: parsed so that a check error can name it, and
    /// taken only as an NSError's `userInfo` (`[NSLocalizedDescriptionKey: "…"]`).
    case dictionaryLiteral([(key: Expr, value: Expr)], SourceLocation)
    /// `a.b` (and `a._b`, the instance variable).
    case member(Expr, String, SourceLocation)
    /// `super.name`, only as the callee of a call.
    case superMember(String, SourceLocation)
    case call(Expr, [Argument], SourceLocation)
    case subscripted(Expr, Expr, SourceLocation)
    case unary(String, Expr, SourceLocation)
    case binary(String, Expr, Expr, SourceLocation)
    /// `a + b - c + …`, longer than `Parser.longChain` operators of one level,
    /// left-associative: one flat node, so the tree (and its release), the
    /// compiler and the evaluation never recurse per operator. Located at the
    /// last operator, as the nested form's root would be.
    case chain(Expr, [ChainLink], SourceLocation)
    /// Swift's key-path literal: `\.balance`, `\Account.owner?.name`.
    case keyPath(KeyPathLiteral, SourceLocation)
    /// `{ obj, change in … }`, the handler of `observe(_:options:changeHandler:)`.
    case closure(ClosureLiteral, SourceLocation)
    /// `x as? T`, `x as! T`, `x as T`.
    case cast(Expr, TypeSyntax, forced: Bool, conditional: Bool, SourceLocation)
    /// `x!`: a scenario's values are never optional, so it is `x`.
    case forceUnwrap(Expr, SourceLocation)

    var location: SourceLocation {
        switch self {
        case .literal(_, let l), .interpolation(_, let l), .identifier(_, let l, _), .selfRef(let l),
            .dotName(_, let l),
            .arrayLiteral(_, let l), .dictionaryLiteral(_, let l), .member(_, _, let l), .superMember(_, let l),
            .call(_, _, let l),
            .subscripted(_, _, let l), .unary(_, _, let l), .binary(_, _, _, let l), .chain(_, _, let l),
            .keyPath(_, let l), .closure(_, let l), .cast(_, _, _, _, let l), .forceUnwrap(_, let l):
            return l
        }
    }
}

/// `\Root.a?.b`: the root type when written, the components, and whether
/// it chains through an optional (`?.`).
struct KeyPathLiteral {
    var root: String?
    var components: [String]
    var throughOptional: Bool
    var path: String { components.joined(separator: ".") }
}

/// A closure literal: its parameter names (`_` for unnamed) and body.
struct ClosureLiteral {
    var parameters: [String]
    var body: [Stmt]
}

/// One `op operand` of a `chain`.
struct ChainLink {
    var op: String
    var operand: Expr
    var location: SourceLocation
}

enum InterpolationPart {
    case text(String)
    case expr(Expr)
}

struct Argument {
    var label: String?
    var value: Expr
    var location: SourceLocation
}

/// One `if CONDITION { BODY }` of an if/else-if chain.
struct IfBranch {
    /// `if let NAME = condition`: binds the unwrapped value; taken when not nil.
    var binding: String? = nil
    var condition: Expr
    var body: [Stmt]
    var location: SourceLocation
}

/// A statement as parsed.
indirect enum Stmt {
    case expression(Expr)
    case binding(isLet: Bool, name: String, type: TypeSyntax?, value: Expr?, SourceLocation)
    case assign(target: Expr, op: String, value: Expr, SourceLocation)
    /// `if A {…} else if B {…} else {…}`: the branches in order, flat, so a
    /// long chain nests neither in the tree nor in the compiler.
    case ifElse(branches: [IfBranch], else: [Stmt]?, SourceLocation)
    case forIn(name: String, sequence: Expr, body: [Stmt], SourceLocation)
    case whileLoop(condition: Expr, body: [Stmt], SourceLocation)
    case doCatch(body: [Stmt], exceptionName: (String, SourceLocation)?, handler: [Stmt], SourceLocation)
    case returnValue(Expr?, SourceLocation)
    case release(Expr, SourceLocation)
    case function(FunctionDecl)
    case classDecl(ClassDecl)
    case context(String, SourceLocation)
    /// `import M`: refused by the checker (a Swift program is compiled, not interpreted).
    case importModule(String, SourceLocation)
    /// `guard let NAME = value else { … }` (`name` nil: `guard condition else`).
    case guardLet(name: String?, value: Expr, otherwise: [Stmt], SourceLocation)
    /// `throw NSError(domain:code:description:)`.
    case throwError(Expr, SourceLocation)

    var location: SourceLocation {
        switch self {
        case .expression(let e): return e.location
        case .binding(_, _, _, _, let l), .assign(_, _, _, let l), .ifElse(_, _, let l), .forIn(_, _, _, let l),
            .whileLoop(_, _, let l), .doCatch(_, _, _, let l), .returnValue(_, let l), .release(_, let l),
            .context(_, let l), .importModule(_, let l), .guardLet(_, _, _, let l), .throwError(_, let l):
            return l
        case .function(let f): return f.location
        case .classDecl(let c): return c.location
        }
    }
}

/// A type as written: `Double`, `Account?`, `[Transaction]`, `Set<String>`.
struct TypeSyntax {
    var type: ValueType
    /// As written, for the messages that name it (`Array<Employee>`).
    var swiftName = ""
    var location: SourceLocation
    var length: Int
}

struct FunctionDecl {
    var name: String
    var parameters: [String]
    /// Argument labels as Swift writes them (`_` for none); used by `init`.
    var labels: [String] = []
    var body: [Stmt]
    var isStatic: Bool
    var location: SourceLocation
}

struct PropertyDecl {
    var name: String
    var type: TypeSyntax?
    var initial: Expr?
    /// A computed property's expression.
    var computed: Expr?
    /// A custom `set { }` block.
    var setter: [Stmt]?
    var isManual: Bool
    var affectedBy: [(String, SourceLocation)]
    var location: SourceLocation
    /// Swift property observers, run inside the change.
    var willSet: [Stmt]?
    var didSet: [Stmt]?
}

struct ClassDecl {
    var name: String
    var superclass: (String, SourceLocation)?
    var properties: [PropertyDecl]
    var methods: [FunctionDecl]
    var location: SourceLocation
    /// `init(…) { … }`.
    var initializer: FunctionDecl?
}
