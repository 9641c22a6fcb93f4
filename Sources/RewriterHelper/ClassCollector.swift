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
        var result: [String: String] = [:]
        for name in superclassOf.keys {
            var current = name
            var seen: Set<String> = []
            while seen.insert(current).inserted {
                if SwiftRewriter.runtimeClasses.contains(current) {
                    result[name] = current
                    break
                }
                guard let next = superclassOf[current] else { break }
                current = next
            }
        }
        return result
    }

    /// Class name → whether it (or an ancestor) is `@objcMembers`.
    func nsObjectClasses() -> [String: Bool] {
        var result: [String: Bool] = [:]
        for name in superclassOf.keys {
            var current = name
            var members = false
            var seen: Set<String> = []
            while seen.insert(current).inserted {
                if objcMembers.contains(current) { members = true }
                if SwiftRewriter.runtimeClasses.contains(current) {
                    result[name] = members
                    break
                }
                guard let next = superclassOf[current] else { break }
                current = next
            }
        }
        return result
    }
}
