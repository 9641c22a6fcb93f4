import SwiftParser
import SwiftSyntax

/// What the rewriter inserts for an NSObject subclass: its properties' observers
/// and its KVC table (`_kvoDescribe`).
extension EditCollector {
    func isObjC(_ attributes: AttributeListSyntax, classMembers: Bool) -> Bool {
        if attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "nonobjc" }) {
            return false
        }
        return classMembers
            || attributes.contains(where: {
                let name = $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
                return name == "objc" || name == "IBOutlet" || name == "IBInspectable"
            })
    }

    func has(_ modifiers: DeclModifierListSyntax, _ keyword: Keyword) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(keyword) }
    }

    /// Whether an accessor posts a change itself (`willChangeValue(forKey:)`,
    /// `didChangeValue(for:)`, `willChange(_:valuesAt:forKey:)`…).
    func postsByHand(_ accessor: AccessorDeclSyntax) -> Bool {
        final class Finder: SyntaxVisitor {
            var found = false
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                let callee = node.calledExpression
                let name =
                    callee.as(DeclReferenceExprSyntax.self)?.baseName.text
                    ?? callee.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                if let name, ["willChangeValue", "didChangeValue", "willChange", "didChange"].contains(name) {
                    found = true
                }
                return found ? .skipChildren : .visitChildren
            }
        }
        guard let body = accessor.body else { return false }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(body)
        return finder.found
    }

    /// The KVC table and the KVO observers of one NSObject subclass.
    func describe(_ node: ClassDeclSyntax, objcMembers: Bool) {
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
        // What the class's extensions declare (`@objc` members real code
        // keeps there: a computed key, its keyPathsForValuesAffecting…).
        for offset in extensionsOf[node.name.text] ?? [] {
            lines.append("\(className)._kvoExtension\(offset)(table)")
        }
        // What `dump` and `Mirror` show of an instance: its stored properties,
        // as Swift's reflection does (kvo-run's NSObject hides its own).
        lines.append(
            "table.storedProperties { (o: \(className)) -> [(String, Any)] in ["
                + stored.map { "(\"\($0.trimmingBackticks)\", o.\($0))" }.joined(separator: ", ") + "] }")
        // Each line after its own directive: swiftc names the closing brace's
        // line for an error in any of them.
        let body = lines.map { SourceLocationFile.generatedMarker + "\n        " + $0 }.joined(separator: "\n")
        // An override is as visible as its class must let it be.
        let access =
            node.modifiers.contains { [.keyword(.public), .keyword(.open)].contains($0.name.tokenKind) }
            ? "public " : ""
        let text =
            "\n\(SourceLocationFile.generatedMarker)\n    \(access)override class func _kvoDescribe(_ table: _KVOClassTable) {\n\(body)\n    }\n"
        insert(text, at: node.memberBlock.rightBrace.positionAfterSkippingLeadingTrivia)
    }

    /// The KVC entries of an extension of an NSObject subclass of the
    /// program, in a function of its own that the class's `_kvoDescribe`
    /// calls (an extension cannot override `_kvoDescribe` itself).
    func describe(_ node: ExtensionDeclSyntax, of name: String, objcMembers: Bool) {
        let className = name + (genericParameters[name] ?? "")
        var lines: [String] = []
        for member in node.memberBlock.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                lines += property(variable, className: className, objcMembers: objcMembers)
            } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                lines += method(function, className: className, objcMembers: objcMembers)
            }
        }
        // Each line after its own directive: swiftc names the closing brace's
        // line for an error in any of them.
        let body = lines.map { SourceLocationFile.generatedMarker + "\n        " + $0 }.joined(separator: "\n")
        let offset = node.positionAfterSkippingLeadingTrivia.utf8Offset
        let text =
            "\n\(SourceLocationFile.generatedMarker)\n    static func _kvoExtension\(offset)(_ table: _KVOClassTable) {\n\(body)\n    }\n"
        insert(text, at: node.memberBlock.rightBrace.positionAfterSkippingLeadingTrivia)
    }

    /// The stored instance properties a declaration makes (not computed,
    /// static or lazy ones), in order.
    func storedNames(_ node: VariableDeclSyntax) -> [String] {
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
    func property(_ node: VariableDeclSyntax, className: String, objcMembers: Bool) -> [String] {
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
        let overridesFoundation =
            has(node.modifiers, .override)
            && (ancestors[className].flatMap { SwiftRewriter.foundationProperties[$0]?.contains(name) } ?? false)
        let objc = overridesFoundation || isObjC(node.attributes, classMembers: objcMembers)
        let dynamic = has(node.modifiers, .dynamic)
        // `@objc(displayName) var name`: Objective-C, and so KVC and KVO, know
        // the property by the name in the attribute.
        let key = objectiveCName(node.attributes) ?? name.trimmingBackticks
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
            "table.property(\"\(key)\", objc: \(objc), dynamic: \(objc && dynamic), get: { (o: \(className)) in o.\(name) }, set: "
            + (writable ? "{ (o: \(className), v) in o.\(name) = v }" : "nil") + ", keyPath: \\\(className).\(name))"
        guard writable, !lazy, !otherAttributes, !override else { return [entry] }

        // `dynamic` alone is Swift's own (dynamic replacement), not Objective-C's:
        // only `@objc dynamic` goes through KVO's setter.
        let notifies = objc && dynamic
        // A setter, `willSet` or `didSet` that posts the change by hand
        // (`willChangeValue(forKey:)`) notifies: no warning that it does not
        // (SPEC §11.1), and no advice to make it dynamic, which would post twice.
        if !notifies, [setter, willSet, didSet].contains(where: { $0.map(postsByHand) ?? false }) {
            return [entry]
        }
        var will =
            notifies
            ? "_kvoWill(self, \"\(key)\")"
            : "_kvoPlainWill(self, \"\(key)\"" + (dynamic ? ", missing: \"@objc\")" : ")")
        var did = notifies ? "_kvoDid(self, \"\(key)\")" : nil
        if let setter {
            // A custom setter: the change wraps its body.
            guard let body = setter.body else { return [entry] }
            insert(
                "\n" + will + (did.map { "; defer { \($0) }" } ?? ""),
                at: body.leftBrace.endPositionBeforeTrailingTrivia)
            return [entry]
        }
        if computed { return [entry] }
        // A stored property: observers (the user's run inside them). A
        // notifying one without observers of the user's hands the engine
        // the values it stores, the old one read from its storage (`self.p`
        // in its own observers) and the new one `willSet`'s `newValue`, and
        // the storage again at did time for a re-read after a handler ran,
        // where the engine would call its getter through the class table;
        // it runs nothing between the two calls but the store
        // (`_kvoWill(_:_:_:_:)`): the table's entry says so (`stored`). Not
        // where a dynamic replacement could replace its getter.
        var stored = entry
        if notifies && willSet == nil && didSet == nil && !mayReplaceAccessors {
            will = "_kvoWill(self, \"\(key)\", self.\(name), newValue)"
            did = "_kvoDid(self, \"\(key)\", self.\(name))"
            stored = String(entry.dropLast()) + ", stored: true)"
        }
        if let willSet, let body = willSet.body {
            insert("\n" + will, at: body.leftBrace.endPositionBeforeTrailingTrivia)
        }
        if let didSet, let body = didSet.body, let did {
            insert("\ndefer { \(did) }", at: body.leftBrace.endPositionBeforeTrailingTrivia)
        }
        var added = ""
        if willSet == nil { added += " willSet { \(will) }" }
        if didSet == nil, let did { added += " didSet { \(did) }" }
        guard !added.isEmpty else { return [stored] }
        if let block = binding.accessorBlock {
            insert(added, at: block.rightBrace.positionAfterSkippingLeadingTrivia)
        } else {
            // No type written and no literal to tell it: Swift infers it from
            // the initializer, and observers need no more.
            insert(" {" + added + " }", at: binding.endPositionBeforeTrailingTrivia)
        }
        return [stored]
    }

    /// The name in `@objc(name)`, if the attribute gives one.
    func objectiveCName(_ attributes: AttributeListSyntax) -> String? {
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self),
                attribute.attributeName.trimmedDescription == "objc",
                let arguments = attribute.arguments?.trimmedDescription, !arguments.isEmpty,
                !arguments.contains(":")
            else { continue }
            return arguments
        }
        return nil
    }

    /// Methods KVC finds by name (SPEC §5) and the class hooks spelled per key.
    func method(_ node: FunctionDeclSyntax, className: String, objcMembers: Bool) -> [String] {
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
    func key(after prefix: String, in name: String) -> String? {
        guard name.hasPrefix(prefix), name.count > prefix.count else { return nil }
        let rest = name.dropFirst(prefix.count)
        guard let first = rest.first, first.isUppercase else { return nil }
        return first.lowercased() + rest.dropFirst()
    }
}
