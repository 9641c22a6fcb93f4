import SwiftParser
import SwiftSyntax

/// Walks the program and records the edits.
final class EditCollector: SyntaxVisitor {
    let source: String
    let converter: SourceLocationConverter
    /// NSObject subclasses declared in the program, and whether `@objcMembers` applies.
    let classes: [String: Bool]
    /// The runtime class each of them descends from (`Operation`).
    let ancestors: [String: String]
    /// Where each class's extensions start (`ClassCollector.extensionsOf`)
    /// and its generic parameters.
    var extensionsOf: [String: [Int]] = [:]
    var genericParameters: [String: String] = [:]
    /// Whether a key names no member of a program class (`ClassCollector.lacks`).
    var lacksMember: (_ key: String, _ className: String) -> Bool = { _, _ in false }
    var edits: [Edit] = []
    var warnings: [RewriterRemark] = []
    var errors: [RewriterRemark] = []
    /// Properties by name: whether any declaration of that name is `@objc dynamic`
    /// (for the warning on `observe(\.key)`).
    var dynamicProperties: [String: Bool] = [:]
    /// Whether a top-level expression echoes its value (the REPL).
    var echoes = false
    private let bytes: [UInt8]
    private var hasMain = false
    /// Whether the program may replace a property's accessors
    /// (`@_dynamicReplacement(for:)` of a `dynamic` one): then no stored
    /// property's getter is known to read its storage.
    lazy var mayReplaceAccessors = source.contains("_dynamicReplacement")

    init(source: String, converter: SourceLocationConverter, classes: [String: Bool], ancestors: [String: String]) {
        self.source = source
        self.converter = converter
        self.classes = classes
        self.ancestors = ancestors
        self.bytes = Array(source.utf8)
        super.init(viewMode: .sourceAccurate)
    }

    func location(_ position: AbsolutePosition) -> SourceLocation { converter.location(for: position) }

    func replace(_ node: some SyntaxProtocol, with text: String) {
        edits.append(
            Edit(
                start: node.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: node.endPositionBeforeTrailingTrivia.utf8Offset, text: text))
    }

    func insert(_ text: String, at position: AbsolutePosition) {
        edits.append(Edit(start: position.utf8Offset, end: position.utf8Offset, text: text))
    }

    /// Replaces a token by spaces of its width: columns after it stay put.
    func blank(_ node: some SyntaxProtocol) {
        let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = node.endPositionBeforeTrailingTrivia.utf8Offset
        edits.append(Edit(start: start, end: end, text: String(repeating: " ", count: end - start)))
    }

    /// Whether the node is the first thing on its line.
    func startsLine(_ node: some SyntaxProtocol) -> Bool {
        var index = node.positionAfterSkippingLeadingTrivia.utf8Offset - 1
        while index >= 0 {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { return true }
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") { return false }
            index -= 1
        }
        return true
    }

    // MARK: Imports and attributes

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        let module = node.path.trimmedDescription
        if ["Foundation", "Cocoa", "AppKit", "UIKit", "ObjectiveC"].contains(module) {
            replace(node.path, with: "KVOFoundation")
        }
        if module == "Combine" {
            // swiftc would say only "no such module": say what to write instead.
            let start = location(node.path.positionAfterSkippingLeadingTrivia)
            errors.append(
                .init(
                    message:
                        "no such module 'Combine': Combine is Apple's and Linux has none; observe with 'observe(\\.key, options: [.initial, .new]) { object, change in … }', the KVO that 'publisher(for:)' wraps on a Mac",
                    line: start.line, column: start.column, length: module.utf8.count))
        }
        return .skipChildren
    }

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        let name = node.attributeName.trimmedDescription
        if ["objc", "objcMembers", "nonobjc", "IBOutlet", "IBAction", "IBInspectable", "NSManaged"].contains(name) {
            blank(node)
        }
        if name == "main" { hasMain = true }
        return .visitChildren
    }

    override func visit(_ node: DeclModifierSyntax) -> SyntaxVisitorContinueKind {
        if node.name.tokenKind == .keyword(.dynamic) { blank(node) }
        return .visitChildren
    }

    // MARK: Classes

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let objcMembers = classes[node.name.text] else { return .visitChildren }
        describe(node, objcMembers: objcMembers)
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let type = node.extendedType.as(IdentifierTypeSyntax.self), type.genericArgumentClause == nil,
            let objcMembers = classes[type.name.text]
        else { return .visitChildren }
        describe(node, of: type.name.text, objcMembers: objcMembers)
        return .visitChildren
    }

    // MARK: Expressions

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "keyPath", let argument = node.arguments.first?.expression {
            // `#keyPath(Account.owner.name)`: the path without the class.
            var components = argument.trimmedDescription.split(separator: ".").map(String.init)
            // `#keyPath(Account.nope)`: swiftc rejects it on a Mac, where the
            // Objective-C property must exist; here it would compile to a string.
            if components.count > 1, classes[components[0]] != nil, lacksMember(components[1], components[0]) {
                let start = location(argument.positionAfterSkippingLeadingTrivia)
                let column = start.column + components[0].utf8.count + 1
                errors.append(
                    .init(
                        message: "type '\(components[0])' has no member '\(components[1])'", line: start.line,
                        column: column, length: components[1].utf8.count))
            }
            // `#keyPath(Account)`: a class alone names no property.
            if components.count == 1,
                classes[components[0]] != nil || SwiftRewriter.runtimeClasses.contains(components[0])
            {
                let start = location(argument.positionAfterSkippingLeadingTrivia)
                errors.append(
                    .init(
                        message: "empty '#keyPath' does not refer to a property", line: start.line,
                        column: start.column, length: components[0].utf8.count))
            }
            if components.count > 1, let first = components.first, first.first?.isUppercase == true {
                components.removeFirst()
                // `#keyPath(Operation.isFinished)` is "finished" (the Objective-C name).
                let runtimeClass = ancestors[first] ?? (SwiftRewriter.runtimeClasses.contains(first) ? first : nil)
                if components.count == 1, let runtimeClass,
                    let name = SwiftRewriter.objectiveCNames[runtimeClass]?[components[0]]
                {
                    components[0] = name
                }
            }
            replace(node, with: "\"" + components.joined(separator: ".") + "\"")
            return .skipChildren
        }
        return .visitChildren
    }

    override func visit(_ node: InOutExprSyntax) -> SyntaxVisitorContinueKind {
        guard let name = contextName(node.expression) else { return .visitChildren }
        var contextual = false
        if let labeled = node.parent?.as(LabeledExprSyntax.self), labeled.label?.text == "context" {
            contextual = true
        }
        if let list = node.parent?.as(ExprListSyntax.self),
            list.contains(where: { ["==", "!="].contains($0.as(BinaryOperatorExprSyntax.self)?.operator.text ?? "") })
        {
            contextual = true
        }
        if let infix = node.parent?.as(InfixOperatorExprSyntax.self),
            ["==", "!="].contains(infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text ?? "")
        {
            contextual = true
        }
        if contextual { replace(node, with: "_kvoContext(\"\(name)\")") }
        return .skipChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        // `Swift.print` (written where a method named `print` hides the
        // function) prints through the runtime as `print` does: `_KVOs` is
        // the runtime's five-letter stand-in for `Swift`, so columns stay.
        if let base = node.base?.as(DeclReferenceExprSyntax.self), base.baseName.text == "Swift",
            ["print", "debugPrint", "dump"].contains(node.declName.baseName.text)
        {
            replace(base, with: "_KVOs")
        }
        return .visitChildren
    }

    // MARK: Casts to NSObject

    /// `x as? NSObject`, `x as! NSObject` and `x is NSObject` succeed on a
    /// Mac for what Objective-C bridges (an NSNumber, an NSString), whose
    /// classes here descend from swift-corelibs-foundation's NSObject, not
    /// the runtime's: spelled as the runtime's operators of the same
    /// precedence (`x ~>? NSObject.self`), which see such a value as an
    /// NSObject (SPEC §11.8). Only the cast and the type change; the operand
    /// stays where it is.
    override func visit(_ node: UnresolvedAsExprSyntax) -> SyntaxVisitorContinueKind {
        guard let list = node.parent?.as(ExprListSyntax.self), let index = list.firstIndex(where: { $0.id == node.id }),
            list.index(after: index) != list.endIndex,
            let type = list[list.index(after: index)].as(TypeExprSyntax.self)
        else { return .visitChildren }
        rewriteCast(from: node.asKeyword, mark: node.questionOrExclamationMark, type: type.type)
        return .visitChildren
    }

    override func visit(_ node: AsExprSyntax) -> SyntaxVisitorContinueKind {
        rewriteCast(from: node.asKeyword, mark: node.questionOrExclamationMark, type: node.type)
        return .visitChildren
    }

    override func visit(_ node: UnresolvedIsExprSyntax) -> SyntaxVisitorContinueKind {
        guard let list = node.parent?.as(ExprListSyntax.self), let index = list.firstIndex(where: { $0.id == node.id }),
            list.index(after: index) != list.endIndex,
            let type = list[list.index(after: index)].as(TypeExprSyntax.self)
        else { return .visitChildren }
        rewriteCast(from: node.isKeyword, mark: nil, type: type.type)
        return .visitChildren
    }

    override func visit(_ node: IsExprSyntax) -> SyntaxVisitorContinueKind {
        rewriteCast(from: node.isKeyword, mark: nil, type: node.type)
        return .visitChildren
    }

    private func rewriteCast(from keyword: TokenSyntax, mark: TokenSyntax?, type: TypeSyntax) {
        guard let name = type.as(IdentifierTypeSyntax.self), name.name.text == "NSObject",
            name.genericArgumentClause == nil
        else { return }
        let spelled: String
        switch (keyword.tokenKind, mark?.tokenKind) {
        case (.keyword(.is), _): spelled = "~>~"
        case (_, .postfixQuestionMark?), (_, .infixQuestionMark?): spelled = "~>?"
        case (_, .exclamationMark?): spelled = "~>!"
        default: return  // `as NSObject`: an upcast the compiler checks as written.
        }
        edits.append(
            Edit(
                start: keyword.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: type.endPositionBeforeTrailingTrivia.utf8Offset, text: spelled + " NSObject.self"))
    }

    /// The name of a context's variable: `&myContext` is `myContext`,
    /// `&self.myContext` too; a static one is named with its type
    /// (`&Observer.context`, and `&Self.context` inside `Observer`).
    private func contextName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        guard let member = expression.as(MemberAccessExprSyntax.self),
            let base = member.base?.as(DeclReferenceExprSyntax.self)
        else { return nil }
        let name = member.declName.baseName.text
        switch base.baseName.tokenKind {
        case .keyword(.self): return name
        case .keyword(.Self):
            var parent = member.parent
            while let node = parent, !node.is(ClassDeclSyntax.self) { parent = node.parent }
            return parent?.as(ClassDeclSyntax.self).map { $0.name.text + "." + name }
        default: return base.baseName.text + "." + name
        }
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        // `o.observe(…)`, or `observe(…)` on `self` inside the class.
        guard let name = calledName(node) else { return .visitChildren }
        let keyPathCalls = ["observe", "willChangeValue", "didChangeValue", "willChange", "didChange", "publisher"]
        // The key path is the first argument, or `for:` (`willChange(_:valuesAt:for:)`).
        if keyPathCalls.contains(name),
            let first = node.arguments.first(where: { argument in
                argument.expression.is(KeyPathExprSyntax.self)
                    && (argument.label == nil || argument.label?.text == "for")
            })?.expression.as(KeyPathExprSyntax.self)
        {
            let path = keyPathName(first)
            if let path {
                // A handler's first statement: where a trap in it is
                // reported (a one-expression handler has no mark of its own).
                var handlerAt = ""
                if name == "observe", let body = handlerClosure(node)?.statements.first {
                    let start = location(body.positionAfterSkippingLeadingTrivia)
                    handlerAt = ", handlerAt: (\(start.line), \(start.column))"
                }
                replace(first, with: "_kvoKeyPath(\(first.trimmedDescription), \"\(path)\"\(handlerAt))")
                if name == "observe", let key = path.split(separator: ".").last.map(String.init),
                    dynamicProperties[key] == false
                {
                    let start = location(first.positionAfterSkippingLeadingTrivia)
                    warnings.append(
                        .init(
                            message:
                                "passing reference to non-'@objc dynamic' property '\(key)' to KVO method 'observe(_:options:changeHandler:)' may lead to unexpected behavior or runtime trap",
                            line: start.line, column: start.column,
                            length: first.trimmedDescription.utf8.count))
                }
            }
            return .visitChildren
        }
        return .visitChildren
    }

    /// An `observe` call's change handler: its trailing closure or its `changeHandler:`.
    func handlerClosure(_ call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        call.trailingClosure
            ?? call.arguments.first { $0.label?.text == "changeHandler" }?.expression.as(ClosureExprSyntax.self)
    }

    /// The name of the method a call calls: `o.observe(…)` or `observe(…)`.
    func calledName(_ call: FunctionCallExprSyntax) -> String? {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
    }

    /// The name of a key-path literal (`\.account?.balance` is
    /// `account.balance`); nil when a component is not a property.
    func keyPathName(_ node: KeyPathExprSyntax) -> String? {
        var names: [String] = []
        for component in node.components {
            switch component.component {
            case .property(let property): names.append(property.declName.baseName.text)
            case .optional: continue
            default: return nil
            }
        }
        return names.isEmpty ? nil : names.joined(separator: ".")
    }

    // MARK: Statements: locations, names, unused tokens

    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        mark(node)
        if echoes, case .expr(let expression) = node.item, node.parent?.parent?.is(SourceFileSyntax.self) == true {
            // After the expression, so that its columns stay the user's.
            insert(" ⇢ _kvoEcho", at: expression.endPositionBeforeTrailingTrivia)
        }
        return .visitChildren
    }

    /// The runtime starts before the first statement.
    func finish(_ tree: SourceFileSyntax) {
        guard !hasMain else { return }
        if let first = tree.statements.first(where: { item in
            if case .decl(let decl) = item.item, decl.is(ImportDeclSyntax.self) { return false }
            return true
        }) {
            insert("_kvoStart()\n", at: first.positionAfterSkippingLeadingTrivia)
        }
        if !tree.statements.contains(where: { item in
            guard case .decl(let decl) = item.item, let importDecl = decl.as(ImportDeclSyntax.self) else {
                return false
            }
            return ["Foundation", "Cocoa", "AppKit", "UIKit", "ObjectiveC"].contains(importDecl.path.trimmedDescription)
        }) {
            insert("import KVOFoundation\n", at: AbsolutePosition(utf8Offset: 0))
        }
    }
}
