import SwiftSyntax

/// What the REPL's program declares at top level (SPEC §10.1), read from
/// the tree Swift's own parser made of the entries: the names a Swift
/// session completes (`REPLDeclarations`), and the classes whose tables
/// the runtime describes for `:classes` as the new entry ends.
///
/// Read here, from swift-syntax, rather than scanned in kvo-run: the
/// rewriter parses exactly the Swift this toolchain accepts (attributes,
/// tuples, extensions, backticks), so the names stay right as Swift grows,
/// and they come with the parse the program needs anyway.
struct REPLDeclarationCollector {
    private(set) var declarations = REPLDeclarations()
    /// The top-level classes the runtime can be handed as `Name.self` (see `describable`).
    private var classes: [String] = []
    /// How many top-level declarations have each name.
    private var declaredCount: [String: Int] = [:]
    /// Top-level variables' initializers that call a name (`Account()`).
    private var calledTypes: [String: String] = [:]
    private var typeNames: Set<String> = []

    init(_ tree: SourceFileSyntax) {
        for item in tree.statements {
            guard case .decl(let decl) = item.item else { continue }
            collect(decl)
        }
        for (variable, called) in calledTypes where typeNames.contains(called) {
            declarations.variableTypes[variable] = declarations.variableTypes[variable] ?? called
        }
        declarations.names = Array(Set(declarations.names)).sorted()
        for (type, members) in declarations.members { declarations.members[type] = Array(Set(members)).sorted() }
    }

    /// The classes `_kvoEntryEnds` is given, as `[A.self, B.self]` (empty
    /// when there are none): the top-level classes that are not generic
    /// (`Box.self` names no class), have no `@available` (an unavailable
    /// class cannot be named), and whose name nothing else at top level
    /// has (`A.self` would be ambiguous: an error at a line the user never
    /// wrote).
    var describable: String {
        let named = classes.filter { declaredCount[$0] == 1 }
        return named.isEmpty ? "" : "[" + named.map { $0 + ".self" }.joined(separator: ", ") + "]"
    }

    private mutating func collect(_ decl: DeclSyntax) {
        if let variable = decl.as(VariableDeclSyntax.self) {
            for binding in variable.bindings {
                let names = Self.names(in: binding.pattern)
                declarations.names += names
                for name in names { declaredCount[name, default: 0] += 1 }
                guard names.count == 1, let name = names.first else { continue }
                if let annotation = binding.typeAnnotation {
                    declarations.variableTypes[name] = annotation.type.trimmedDescription
                } else if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
                    let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)
                {
                    calledTypes[name] = callee.baseName.text.trimmingBackticks
                }
            }
        } else if let function = decl.as(FunctionDeclSyntax.self) {
            declare(function.name, type: false)
        } else if let node = decl.as(ClassDeclSyntax.self) {
            declare(node.name)
            collectMembers(node.memberBlock, of: node.name)
            if let first = node.inheritanceClause?.inheritedTypes.first {
                declarations.superclasses[node.name.text.trimmingBackticks] = first.type.trimmedDescription
            }
            let unavailable = node.attributes.contains {
                $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "available"
            }
            if node.genericParameterClause == nil, !unavailable, node.name.presence == .present {
                classes.append(node.name.text)
            }
        } else if let node = decl.as(StructDeclSyntax.self) {
            declare(node.name)
            collectMembers(node.memberBlock, of: node.name)
        } else if let node = decl.as(EnumDeclSyntax.self) {
            declare(node.name)
            collectMembers(node.memberBlock, of: node.name)
        } else if let node = decl.as(ActorDeclSyntax.self) {
            declare(node.name)
            collectMembers(node.memberBlock, of: node.name)
        } else if let node = decl.as(ProtocolDeclSyntax.self) {
            declare(node.name)
        } else if let node = decl.as(TypeAliasDeclSyntax.self) {
            declare(node.name)
        } else if let node = decl.as(ExtensionDeclSyntax.self),
            let type = node.extendedType.as(IdentifierTypeSyntax.self)
        {
            collectMembers(node.memberBlock, of: type.name)
        }
    }

    /// A top-level function (an operator's name is no name to complete) or type.
    private mutating func declare(_ name: TokenSyntax, type: Bool = true) {
        guard name.presence == .present else { return }
        let text = name.text
        declaredCount[text, default: 0] += 1
        let trimmed = text.trimmingBackticks
        guard trimmed.first.map({ $0 == "_" || $0.isLetter }) == true else { return }
        declarations.names.append(trimmed)
        if type { typeNames.insert(trimmed) }
    }

    /// The names a binding's pattern declares: `a`, and each of `(a, b)`.
    private static func names(in pattern: PatternSyntax) -> [String] {
        if let identifier = pattern.as(IdentifierPatternSyntax.self) {
            return identifier.identifier.presence == .present ? [identifier.identifier.text.trimmingBackticks] : []
        }
        if let tuple = pattern.as(TuplePatternSyntax.self) {
            return tuple.elements.flatMap { names(in: $0.pattern) }
        }
        return []
    }

    /// A type's instance properties and methods (not `static` or `class` ones).
    private mutating func collectMembers(_ block: MemberBlockSyntax, of type: TokenSyntax) {
        let name = type.text.trimmingBackticks
        var members = declarations.members[name] ?? []
        for member in block.members {
            if let variable = member.decl.as(VariableDeclSyntax.self), !Self.isTypeMember(variable.modifiers) {
                for binding in variable.bindings { members += Self.names(in: binding.pattern) }
            } else if let function = member.decl.as(FunctionDeclSyntax.self), !Self.isTypeMember(function.modifiers),
                function.name.presence == .present
            {
                members.append(Self.completion(of: function))
            }
        }
        declarations.members[name] = members
    }

    private static func isTypeMember(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    /// A method as Tab completes it, up to its first argument: `reset()`,
    /// `deposit(` for an unlabelled one, `move(to: ` for a labelled one.
    private static func completion(of function: FunctionDeclSyntax) -> String {
        let name = function.name.text.trimmingBackticks
        guard let first = function.signature.parameterClause.parameters.first else { return name + "()" }
        let label = first.firstName.text
        return label == "_" ? name + "(" : name + "(" + label.trimmingBackticks + ": "
    }
}
