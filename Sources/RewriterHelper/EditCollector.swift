import SwiftParser
import SwiftSyntax

/// Walks the program and records the edits.
final class EditCollector: SyntaxVisitor {
    let source: String
    let converter: SourceLocationConverter
    /// NSObject subclasses declared in the program, and whether `@objcMembers` applies.
    let classes: [String: Bool]
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

    init(source: String, converter: SourceLocationConverter, classes: [String: Bool]) {
        self.source = source
        self.converter = converter
        self.classes = classes
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

    private func isObjC(_ attributes: AttributeListSyntax, classMembers: Bool) -> Bool {
        if attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "nonobjc" }) {
            return false
        }
        return classMembers
            || attributes.contains(where: {
                let name = $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
                return name == "objc" || name == "IBOutlet" || name == "IBInspectable"
            })
    }

    private func has(_ modifiers: DeclModifierListSyntax, _ keyword: Keyword) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(keyword) }
    }

    /// The KVC table and the KVO observers of one NSObject subclass.
    private func describe(_ node: ClassDeclSyntax, objcMembers: Bool) {
        let className =
            node.name.text
            + (node.genericParameterClause.map { clause in
                "<" + clause.parameters.map { $0.name.text }.joined(separator: ", ") + ">"
            } ?? "")
        var lines: [String] = []
        var stored: [String] = []
        for member in node.memberBlock.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                lines += property(variable, className: className, objcMembers: objcMembers)
                stored += storedNames(variable)
            } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                lines += method(function, className: className, objcMembers: objcMembers)
            }
        }
        // What `dump` and `Mirror` show of an instance: its stored properties,
        // as Swift's reflection does (kvo-run's NSObject hides its own).
        lines.append(
            "table.storedProperties { (o: \(className)) -> [(String, Any)] in ["
                + stored.map { "(\"\($0)\", o.\($0))" }.joined(separator: ", ") + "] }")
        let body = lines.map { "        " + $0 }.joined(separator: "\n")
        // An override is as visible as its class must let it be.
        let access =
            node.modifiers.contains { [.keyword(.public), .keyword(.open)].contains($0.name.tokenKind) }
            ? "public " : ""
        let text = "\n    \(access)override class func _kvoDescribe(_ table: _KVOClassTable) {\n\(body)\n    }\n"
        insert(text, at: node.memberBlock.rightBrace.positionAfterSkippingLeadingTrivia)
    }

    /// The stored instance properties a declaration makes (not computed,
    /// static or lazy ones), in order.
    private func storedNames(_ node: VariableDeclSyntax) -> [String] {
        if has(node.modifiers, .static) || has(node.modifiers, .class) || has(node.modifiers, .lazy) { return [] }
        var names: [String] = []
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            if let block = binding.accessorBlock {
                guard case .accessors(let list) = block.accessors,
                    list.allSatisfy({
                        [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
                    })
                else { continue }
            }
            names.append(name)
        }
        return names
    }

    /// One property: its table entry, and the observers that tell KVO.
    private func property(_ node: VariableDeclSyntax, className: String, objcMembers: Bool) -> [String] {
        guard node.bindings.count == 1, let binding = node.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { return [] }
        if has(node.modifiers, .static) || has(node.modifiers, .class) {
            // `class var keyPathsForValuesAffectingFullName: Set<String>`, as Apple's Swift documentation writes it.
            if let key = key(after: "keyPathsForValuesAffecting", in: name) {
                return ["table.affecting(\"\(key)\") { Set(\(className).\(name)) }"]
            }
            if let key = key(after: "automaticallyNotifiesObserversOf", in: name) {
                return ["table.automatic(\"\(key)\") { \(className).\(name) }"]
            }
            return []
        }
        let objc = isObjC(node.attributes, classMembers: objcMembers)
        let dynamic = has(node.modifiers, .dynamic)
        // Swift's warning spares @objc dynamic properties and @objc ones with
        // an explicit setter (meant for manual notification).
        dynamicProperties[name] = (dynamicProperties[name] ?? false) || (objc && dynamic)
        let isLet = node.bindingSpecifier.tokenKind == .keyword(.let)
        let otherAttributes = node.attributes.contains { element in
            guard let attribute = element.as(AttributeSyntax.self) else { return true }
            return !["objc", "nonobjc", "IBOutlet", "IBInspectable"].contains(
                attribute.attributeName.trimmedDescription)
        }
        let lazy = has(node.modifiers, .lazy)
        let override = has(node.modifiers, .override)
        // Which accessors it has.
        var getterOnly = false
        var setter: AccessorDeclSyntax?
        var willSet: AccessorDeclSyntax?
        var didSet: AccessorDeclSyntax?
        var computed = false
        if let block = binding.accessorBlock {
            switch block.accessors {
            case .getter:
                getterOnly = true
                computed = true
            case .accessors(let list):
                for accessor in list {
                    switch accessor.accessorSpecifier.tokenKind {
                    case .keyword(.get): computed = true
                    case .keyword(.set): setter = accessor
                    case .keyword(.willSet): willSet = accessor
                    case .keyword(.didSet): didSet = accessor
                    default: break
                    }
                }
                if computed && setter == nil { getterOnly = true }
            @unknown default:
                break
            }
        }
        let writable = !isLet && !getterOnly
        if setter != nil { dynamicProperties[name] = (dynamicProperties[name] ?? false) || objc }
        let entry =
            "table.property(\"\(name)\", objc: \(objc), dynamic: \(objc && dynamic), get: { (o: \(className)) in o.\(name) }, set: "
            + (writable ? "{ (o: \(className), v) in o.\(name) = v }" : "nil") + ", keyPath: \\\(className).\(name))"
        guard writable, !lazy, !otherAttributes, !override else { return [entry] }

        // `dynamic` alone is Swift's own (dynamic replacement), not Objective-C's:
        // only `@objc dynamic` goes through KVO's setter.
        let notifies = objc && dynamic
        let will =
            notifies
            ? "_kvoWill(self, \"\(name)\")"
            : "_kvoPlainWill(self, \"\(name)\"" + (dynamic ? ", missing: \"@objc\")" : ")")
        let did = notifies ? "_kvoDid(self, \"\(name)\")" : nil
        if let setter {
            // A custom setter: the change wraps its body.
            guard let body = setter.body else { return [entry] }
            insert(
                "\n" + will + (did.map { "; defer { \($0) }" } ?? ""),
                at: body.leftBrace.endPositionBeforeTrailingTrivia)
            return [entry]
        }
        if computed { return [entry] }
        // A stored property: observers (the user's run inside them).
        if let willSet, let body = willSet.body {
            insert("\n" + will, at: body.leftBrace.endPositionBeforeTrailingTrivia)
        }
        if let didSet, let body = didSet.body, let did {
            insert("\ndefer { \(did) }", at: body.leftBrace.endPositionBeforeTrailingTrivia)
        }
        var added = ""
        if willSet == nil { added += " willSet { \(will) }" }
        if didSet == nil, let did { added += " didSet { \(did) }" }
        guard !added.isEmpty else { return [entry] }
        if let block = binding.accessorBlock {
            insert(added, at: block.rightBrace.positionAfterSkippingLeadingTrivia)
        } else {
            // No type written and no literal to tell it: Swift infers it from
            // the initializer, and observers need no more.
            insert(" {" + added + " }", at: binding.endPositionBeforeTrailingTrivia)
        }
        return [entry]
    }

    /// Methods KVC finds by name (SPEC §5) and the class hooks spelled per key.
    private func method(_ node: FunctionDeclSyntax, className: String, objcMembers: Bool) -> [String] {
        let name = node.name.text
        let parameters = node.signature.parameterClause.parameters
        let isClassMethod = has(node.modifiers, .class) || has(node.modifiers, .static)
        let returns = node.signature.returnClause != nil
        let throwing = node.signature.effectSpecifiers?.throwsClause != nil
        if isClassMethod {
            if parameters.isEmpty, let key = key(after: "keyPathsForValuesAffecting", in: name) {
                return ["table.affecting(\"\(key)\") { Set(\(className).\(name)()) }"]
            }
            if parameters.isEmpty, let key = key(after: "automaticallyNotifiesObserversOf", in: name) {
                return ["table.automatic(\"\(key)\") { \(className).\(name)() }"]
            }
            return []
        }
        if parameters.count == 1, throwing, let key = key(after: "validate", in: name) {
            let type = parameters.first?.type.trimmedDescription ?? ""
            if type.contains("Pointer") {
                return ["table.validator(\"\(key)\") { (o: \(className), p) in try o.\(name)(p) }"]
            }
            return [
                "table.valueValidator(\"\(key)\") { (o: \(className), v) in try o.\(name)(v) }"
            ]
        }
        // `objectIn<Key>AtIndex(_:)` (with `countOf<Key>()`, KVC's indexed
        // getter) and `set<Key>(_:)`: one unlabelled argument, as their
        // Objective-C selectors `objectInKeyAtIndex:` and `setKey:` need.
        if parameters.count == 1, !throwing, isObjC(node.attributes, classMembers: objcMembers),
            parameters.first?.firstName.tokenKind == .wildcard,
            (name.hasPrefix("objectIn") && name.hasSuffix("AtIndex")) || key(after: "set", in: name) != nil
        {
            return ["table.oneArgument(\"\(name)\") { (o: \(className), v) in o.\(name)(v) }"]
        }
        guard parameters.isEmpty, returns, isObjC(node.attributes, classMembers: objcMembers) else { return [] }
        var key = name
        if let rest = self.key(after: "get", in: name) { key = rest }
        return ["table.getter(\"\(key)\") { (o: \(className)) in o.\(name)() }"]
    }

    /// `keyPathsForValuesAffectingFullName` → `fullName`.
    private func key(after prefix: String, in name: String) -> String? {
        guard name.hasPrefix(prefix), name.count > prefix.count else { return nil }
        let rest = name.dropFirst(prefix.count)
        guard let first = rest.first, first.isUppercase else { return nil }
        return first.lowercased() + rest.dropFirst()
    }

    // MARK: Expressions

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "keyPath", let argument = node.arguments.first?.expression {
            // `#keyPath(Account.owner.name)`: the path without the class.
            var components = argument.trimmedDescription.split(separator: ".").map(String.init)
            if components.count > 1, let first = components.first, first.first?.isUppercase == true {
                components.removeFirst()
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
                replace(first, with: "_kvoKeyPath(\(first.trimmedDescription), \"\(path)\")")
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

    /// A location mark before each statement that starts a line (not
    /// declarations of types or functions).
    private func mark(_ node: CodeBlockItemSyntax) {
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

    private func firstKVOCall(in node: Syntax) -> FunctionCallExprSyntax? {
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
    private func topLevelBinding(_ node: CodeBlockItemSyntax) -> (name: String, isToken: Bool)? {
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
    private func unusedObserve(_ node: CodeBlockItemSyntax) {
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
    private func isKVOObserve(_ call: FunctionCallExprSyntax) -> Bool {
        guard let first = call.arguments.first, first.label == nil else { return false }
        return call.trailingClosure != nil || call.arguments.contains { $0.label?.text == "changeHandler" }
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
