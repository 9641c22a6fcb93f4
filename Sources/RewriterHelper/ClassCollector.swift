import SwiftParser
import SwiftSyntax

/// Which classes of the program are NSObject subclasses, directly or not.
final class ClassCollector: SyntaxVisitor {
    var superclassOf: [String: String] = [:]
    var objcMembers: Set<String> = []

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text
        if let first = node.inheritanceClause?.inheritedTypes.first {
            superclassOf[name] = first.type.trimmedDescription
        }
        if node.attributes.contains(where: {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "objcMembers"
        }) {
            objcMembers.insert(name)
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
