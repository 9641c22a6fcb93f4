import SwiftParser
import SwiftSyntax

/// Which classes of the program are NSObject subclasses, directly or not.
final class ClassCollector: SyntaxVisitor {
    var superclassOf: [String: String] = [:]
    var objcMembers: Set<String> = []
    /// `<T, U>` of a generic class, as its members name it.
    var genericParameters: [String: String] = [:]
    /// Each class's extensions in the program, by where each starts (a
    /// UTF-8 offset, which names its describing function).
    var extensionsOf: [String: [Int]] = [:]
    /// The names each class and its extensions declare (properties and
    /// methods), for `#keyPath(A.b)`.
    var membersOf: [String: Set<String>] = [:]

    private func collectMembers(_ block: MemberBlockSyntax, of name: String) {
        for member in block.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                for binding in variable.bindings {
                    if let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                        membersOf[name, default: []].insert(identifier.trimmingBackticks)
                    }
                }
            } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                membersOf[name, default: []].insert(function.name.text)
            }
        }
    }

    /// Whether `key` names no member of `name` nor of any class it descends
    /// from, all of them the program's (up to NSObject, whose own keys
    /// `#keyPath` never names): what swiftc rejects on a Mac.
    func lacks(_ key: String, in name: String) -> Bool {
        var current = name
        var seen: Set<String> = []
        while seen.insert(current).inserted {
            if membersOf[current]?.contains(key) == true { return false }
            guard let next = superclassOf[current] else { return false }
            if next == "NSObject" { return !["description", "hash", "className"].contains(key) }
            current = next
        }
        return false
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text
        if let clause = node.genericParameterClause {
            genericParameters[name] = "<" + clause.parameters.map { $0.name.text }.joined(separator: ", ") + ">"
        }
        if let first = node.inheritanceClause?.inheritedTypes.first {
            superclassOf[name] = first.type.trimmedDescription
        }
        collectMembers(node.memberBlock, of: name)
        if node.attributes.contains(where: {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "objcMembers"
        }) {
            objcMembers.insert(name)
        }
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        if let type = node.extendedType.as(IdentifierTypeSyntax.self), type.genericArgumentClause == nil {
            extensionsOf[type.name.text, default: []].append(node.positionAfterSkippingLeadingTrivia.utf8Offset)
            collectMembers(node.memberBlock, of: type.name.text)
        }
        return .visitChildren
    }

    /// Class name → the runtime class it descends from (`Operation` for an
    /// `AsyncOperation: Operation`), for the program's NSObject subclasses.
    func runtimeAncestors() -> [String: String] {
        superclassOf.keys.reduce(into: [:]) { result, name in result[name] = ancestry(of: name)?.runtimeClass }
    }

    /// Class name → whether it (or an ancestor) is `@objcMembers`.
    func nsObjectClasses() -> [String: Bool] {
        superclassOf.keys.reduce(into: [:]) { result, name in result[name] = ancestry(of: name)?.objcMembers }
    }

    /// Up a class's superclasses to the first of the runtime's classes: that
    /// class, and whether any class on the way is `@objcMembers`; nil for a
    /// class that is no NSObject.
    private func ancestry(of name: String) -> (runtimeClass: String, objcMembers: Bool)? {
        var current = name
        var members = false
        var seen: Set<String> = []
        while seen.insert(current).inserted {
            if objcMembers.contains(current) { members = true }
            if SwiftRewriter.runtimeClasses.contains(current) { return (current, members) }
            guard let next = superclassOf[current] else { return nil }
            current = next
        }
        return nil
    }
}
