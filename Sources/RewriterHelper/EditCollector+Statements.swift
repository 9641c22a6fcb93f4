import SwiftParser
import SwiftSyntax

/// What the rewriter inserts around statements: location marks, the names
/// of top-level bindings, and the warning about an unused token.
extension EditCollector {
    /// A location mark before each statement that starts a line (not
    /// declarations of types or functions).
    func mark(_ node: CodeBlockItemSyntax) {
        switch node.item {
        case .decl(let decl):
            if !decl.is(VariableDeclSyntax.self) { return }
        case .stmt, .expr:
            break
        @unknown default:
            return
        }
        let topLevel = node.parent?.parent?.is(SourceFileSyntax.self) == true
        // The only expression of a body is its value (an implicit return):
        // neither unused nor to be marked (a mark would make it a statement).
        if !topLevel, let list = node.parent?.as(CodeBlockItemListSyntax.self), list.count == 1 {
            if case .expr = node.item { return }
            if case .stmt(let statement) = node.item, statement.is(ExpressionStmtSyntax.self) { return }
        }
        unusedObserve(node)
        // Top-level bindings name their objects wherever they stand (`let a =
        // A(); let b = B()`, `let a = A(), b = B()` too): from their creation
        // on (a pending name the object takes in its `init`, so that the
        // notifications and pictures of its own `init` name it too), and after
        // the binding, before any `;`, for an object made elsewhere.
        var pending: [String] = []
        if topLevel {
            if let token = topLevelToken(node) { pending.append("_kvoPendingToken(\"\(token.trimmingBackticks)\")") }
            let objects = topLevelObjects(node)
            var after = ""
            if !objects.isEmpty {
                let pairs = objects.map { "\"\($0.name.trimmingBackticks)\", \"\($0.className.trimmingBackticks)\"" }
                pending.append("_kvoPendingNames(\(pairs.joined(separator: ", ")))")
                after += objects.map { "; _ = _kvoNamed(\($0.name), \"\($0.name.trimmingBackticks)\")" }.joined()
            }
            // A name that may hold objects in a collection or an optional:
            // the graph reads it when it is drawn (`tokens[0]`).
            after += topLevelHolders(node).map { "; _kvoHolds(\"\($0.trimmingBackticks)\") { \($0) }" }.joined()
            if !after.isEmpty { insert(after, at: node.item.endPositionBeforeTrailingTrivia) }
        }
        guard startsLine(node) else {
            if !pending.isEmpty {
                insert(pending.joined(separator: "; ") + "; ", at: node.positionAfterSkippingLeadingTrivia)
            }
            return
        }
        let start = location(node.positionAfterSkippingLeadingTrivia)
        var call = start.column
        if let found = firstKVOCall(in: Syntax(node)) {
            call =
                location(
                    found.leftParen?.positionAfterSkippingLeadingTrivia ?? found.positionAfterSkippingLeadingTrivia
                ).column
            if location(found.positionAfterSkippingLeadingTrivia).line != start.line { call = start.column }
        }
        // A top-level statement is where a picture's statement starts
        // (`kvo-run graph --at`, the trace's arrows from the program).
        // Inside a body the mark is a declaration (`let _ =`), not an
        // expression: a result builder's closure (RegexBuilder's, SwiftUI's)
        // leaves declarations alone, where an expression `_kvoAt(…)` became a
        // `()` component that does not compile.
        var text =
            topLevel
            ? "_kvoTopLevel(\(start.line), \(start.column), \(call))"
            : "let _ = _kvoAt(\(start.line), \(start.column), \(call))"
        for call in pending { text += "; " + call }
        insert(text + "\n", at: node.positionAfterSkippingLeadingTrivia)
    }

    func firstKVOCall(in node: Syntax) -> FunctionCallExprSyntax? {
        final class Finder: SyntaxVisitor {
            var found: FunctionCallExprSyntax?
            static let names: Set<String> = [
                "addObserver", "removeObserver", "setValue", "value", "observe", "willChangeValue",
                "didChangeValue", "willChange", "didChange", "mutableArrayValue", "mutableSetValue",
                "validateValue", "setValuesForKeys", "observeValue", "setNilValueForKey",
            ]
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if found == nil, let member = node.calledExpression.as(MemberAccessExprSyntax.self),
                    Finder.names.contains(member.declName.baseName.text)
                {
                    found = node
                }
                return found == nil ? .visitChildren : .skipChildren
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(node)
        return finder.found
    }

    /// `let NAME = o.observe(…)` at top level: the token's name.
    func topLevelToken(_ node: CodeBlockItemSyntax) -> String? {
        guard case .decl(let decl) = node.item, let variable = decl.as(VariableDeclSyntax.self),
            variable.bindings.count == 1, let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let call = Self.call(binding.initializer?.value),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "observe"
        else { return nil }
        return name
    }

    /// `let NAME = Class(…)` at top level, each binding of the declaration
    /// (`let a = A(), b = B()`): its name and the class it calls.
    func topLevelObjects(_ node: CodeBlockItemSyntax) -> [(name: String, className: String)] {
        guard case .decl(let decl) = node.item, let variable = decl.as(VariableDeclSyntax.self) else { return [] }
        return variable.bindings.compactMap { binding in
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                let call = Self.call(binding.initializer?.value)
            else { return nil }
            var called = call.calledExpression
            if let generic = called.as(GenericSpecializationExprSyntax.self) { called = generic.expression }
            // A type's name starts with a capital, or names a class of the
            // program's (`` `default`() ``).
            guard let reference = called.as(DeclReferenceExprSyntax.self),
                reference.baseName.text.trimmingBackticks.first?.isUppercase == true
                    || classes[reference.baseName.text] != nil
            else { return nil }
            return (name, reference.baseName.text)
        }
    }

    /// Top-level `let`/`var` bindings whose value may hold objects where
    /// the graph cannot see them otherwise: an array, a dictionary, a set or
    /// an optional (by its type as written or its initializer: `[a.observe
    /// (…)]`, `[NSKeyValueObservation]()`, `Set<…>()`, `nil`), and a `var`
    /// given a token (a later token it is given has no name of its own).
    /// Stored ones only, initialised where declared (a closure may read
    /// them): a computed variable's getter is the program's code.
    func topLevelHolders(_ node: CodeBlockItemSyntax) -> [String] {
        guard case .decl(let decl) = node.item, let variable = decl.as(VariableDeclSyntax.self) else { return [] }
        let isVar = variable.bindingSpecifier.tokenKind == .keyword(.var)
        return variable.bindings.compactMap { binding in
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                Self.isStored(binding)
            else { return nil }
            let type = binding.typeAnnotation?.type
            let isOptional = type.map(Self.isOptionalType) ?? false
            guard let value = binding.initializer?.value else {
                // `var token: NSKeyValueObservation?` starts as nil.
                return isVar && isOptional ? name : nil
            }
            if isOptional || type.map(Self.isCollectionType) == true || Self.makesCollection(value) {
                return name
            }
            if isVar, let call = Self.call(value), calledName(call) == "observe" { return name }
            return nil
        }
    }

    /// A binding without a getter of its own (`willSet`/`didSet` store).
    private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let block = binding.accessorBlock else { return true }
        guard case .accessors(let accessors) = block.accessors else { return false }
        return accessors.allSatisfy {
            [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
        }
    }

    private static let collectionNames: Set<String> = ["Array", "ContiguousArray", "Dictionary", "Set"]

    private static func isOptionalType(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        return type.as(IdentifierTypeSyntax.self)?.name.text == "Optional"
    }

    private static func isCollectionType(_ type: TypeSyntax) -> Bool {
        if type.is(ArrayTypeSyntax.self) || type.is(DictionaryTypeSyntax.self) { return true }
        return type.as(IdentifierTypeSyntax.self).map { collectionNames.contains($0.name.text) } ?? false
    }

    /// `[…]`, `[:]`, `nil`, `[T]()`, `[K: V]()`, `Set<T>()`, `Array(…)`.
    private static func makesCollection(_ value: ExprSyntax) -> Bool {
        if value.is(ArrayExprSyntax.self) || value.is(DictionaryExprSyntax.self) || value.is(NilLiteralExprSyntax.self)
        {
            return true
        }
        guard var called = call(value)?.calledExpression else { return false }
        if called.is(ArrayExprSyntax.self) || called.is(DictionaryExprSyntax.self) { return true }
        if let generic = called.as(GenericSpecializationExprSyntax.self) { called = generic.expression }
        return called.as(DeclReferenceExprSyntax.self).map { collectionNames.contains($0.baseName.text) } ?? false
    }

    /// The call an initializer makes, through `try`.
    private static func call(_ value: ExprSyntax?) -> FunctionCallExprSyntax? {
        guard var expression = value else { return nil }
        if let tried = expression.as(TryExprSyntax.self) { expression = tried.expression }
        return expression.as(FunctionCallExprSyntax.self)
    }

    /// `o.observe(…)` whose token nobody keeps: swiftc's warning, and why it matters.
    func unusedObserve(_ node: CodeBlockItemSyntax) {
        guard case .expr(let expression) = node.item, let call = expression.as(FunctionCallExprSyntax.self),
            calledName(call) == "observe", isKVOObserve(call)
        else { return }
        // At the `.` of `o.observe`, as swiftc says it; at `observe` when it has no receiver.
        let member = call.calledExpression.as(MemberAccessExprSyntax.self)
        let start = location(
            member?.period.positionAfterSkippingLeadingTrivia
                ?? call.calledExpression.positionAfterSkippingLeadingTrivia)
        warnings.append(
            .init(
                message:
                    "result of call to 'observe(_:options:changeHandler:)' is unused; the observation ends at once",
                line: start.line, column: start.column, length: (member == nil ? 0 : 1) + "observe".utf8.count))
    }

    /// KVO's `observe(_:options:changeHandler:)`: an unlabelled first
    /// argument and a handler (not a program's own `observe(person:)`).
    func isKVOObserve(_ call: FunctionCallExprSyntax) -> Bool {
        guard let first = call.arguments.first, first.label == nil else { return false }
        return call.trailingClosure != nil || call.arguments.contains { $0.label?.text == "changeHandler" }
    }
}
