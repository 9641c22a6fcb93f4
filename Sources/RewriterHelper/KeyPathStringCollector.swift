import SwiftSyntax

/// The key paths a program writes as strings (`addObserver(_:forKeyPath:…)`,
/// `value(forKeyPath:)`, `setValue(_:forKeyPath:)`, the sets
/// `keyPathsForValuesAffecting<Key>` returns) and the keys the program
/// gives itself: its classes' properties and methods of no argument, the
/// modelled Foundation classes' properties, and every string it passes as a
/// `forKey:` (a key it posts by hand with `willChangeValue(forKey:)`, a
/// `UserDefaults` key) or writes as a dictionary literal's key. kvo-run
/// warns about a key path none of them has, with a did-you-mean, as a
/// scenario is warned (SPEC §9): the rewriter has no types, so which class a
/// receiver is stays unknown, and only the key itself is checked.
final class KeyPathStringCollector: SyntaxVisitor {
    private(set) var uses: [RewriterKeyPath] = []
    private(set) var known: Set<String> = []
    private let converter: SourceLocationConverter

    init(converter: SourceLocationConverter) {
        self.converter = converter
        known = SwiftRewriter.foundationProperties.values.reduce(into: []) { $0.formUnion($1) }
        for names in SwiftRewriter.objectiveCNames.values { known.formUnion(names.values) }
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        for binding in node.bindings {
            if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                known.insert(name.trimmingBackticks)
            }
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text
        if node.signature.parameterClause.parameters.isEmpty { known.insert(name.trimmingBackticks) }
        // `keyPathsForValuesAffectingFullName`: its strings are key paths.
        if name.hasPrefix("keyPathsForValuesAffecting"), let body = node.body {
            collectStrings(in: Syntax(body), call: "keyPathsForValuesAffecting")
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let called =
            node.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            ?? node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
        for argument in node.arguments {
            guard let label = argument.label?.text, let literal = Self.plainString(argument.expression) else {
                continue
            }
            if label == "forKey" { known.insert(literal.text) }
            if label == "forKeyPath", let called,
                ["addObserver", "removeObserver", "value", "setValue"].contains(called)
            {
                use(literal, call: called)
            }
        }
        return .visitChildren
    }

    override func visit(_ node: DictionaryElementSyntax) -> SyntaxVisitorContinueKind {
        if let key = Self.plainString(node.key) { known.insert(key.text) }
        return .visitChildren
    }

    /// `class var keyPathsForValuesAffectingX: Set<String> { ["a", "b.c"] }`.
    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            name.hasPrefix("keyPathsForValuesAffecting"), let accessor = node.accessorBlock
        {
            collectStrings(in: Syntax(accessor), call: "keyPathsForValuesAffecting")
        }
        return .visitChildren
    }

    private func collectStrings(in node: Syntax, call: String) {
        final class Strings: SyntaxVisitor {
            var found: [(text: String, node: StringLiteralExprSyntax)] = []
            override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
                if let literal = KeyPathStringCollector.plainString(ExprSyntax(node)) { found.append(literal) }
                return .skipChildren
            }
        }
        let strings = Strings(viewMode: .sourceAccurate)
        strings.walk(node)
        for literal in strings.found { use(literal, call: call) }
    }

    private func use(_ literal: (text: String, node: StringLiteralExprSyntax), call: String) {
        let start = converter.location(for: literal.node.positionAfterSkippingLeadingTrivia)
        uses.append(
            RewriterKeyPath(
                call: call, path: literal.text, line: start.line, column: start.column,
                length: literal.node.trimmedDescription.utf8.count))
    }

    /// A string literal without interpolation, and its text.
    static func plainString(_ expression: ExprSyntax) -> (text: String, node: StringLiteralExprSyntax)? {
        guard let literal = expression.as(StringLiteralExprSyntax.self), literal.openingPounds == nil else {
            return nil
        }
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        // An escape (`\n`) is not a key anyone types: left alone.
        return text.contains("\\") ? nil : (text, literal)
    }
}

extension String {
    /// `` `default` `` is the key `default` (SPEC §11.8).
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count > 1 ? String(dropFirst().dropLast()) : self
    }
}
