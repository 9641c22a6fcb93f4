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
        // A(); let b = B()` too): after the binding, before any `;`.
        var pendingToken: String?
        if topLevel, let binding = topLevelBinding(node) {
            if binding.isToken {
                pendingToken = binding.name
            } else {
                insert(
                    "; _ = _kvoNamed(\(binding.name), \"\(binding.name)\")",
                    at: node.item.endPositionBeforeTrailingTrivia)
            }
        }
        guard startsLine(node) else {
            if let pendingToken {
                insert("_kvoPendingToken(\"\(pendingToken)\"); ", at: node.positionAfterSkippingLeadingTrivia)
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
        var text = "\(topLevel ? "_kvoTopLevel" : "_kvoAt")(\(start.line), \(start.column), \(call))"
        if let pendingToken { text += "; _kvoPendingToken(\"\(pendingToken)\")" }
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

    /// `let NAME = Class(…)` or `let NAME = o.observe(…)` at top level.
    func topLevelBinding(_ node: CodeBlockItemSyntax) -> (name: String, isToken: Bool)? {
        guard case .decl(let decl) = node.item, let variable = decl.as(VariableDeclSyntax.self),
            variable.bindings.count == 1, let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let value = binding.initializer?.value
        else { return nil }
        var expression = value
        if let tried = expression.as(TryExprSyntax.self) { expression = tried.expression }
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return nil }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.declName.baseName.text == "observe"
        {
            return (name, true)
        }
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self),
            reference.baseName.text.first?.isUppercase == true
        {
            return (name, false)
        }
        if let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self),
            generic.expression.trimmedDescription.first?.isUppercase == true
        {
            return (name, false)
        }
        return nil
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
