import KVOCore

/// What the checker knows of the Swift spellings the scenario language
/// accepts (SPEC §11.2, §11.3, §11.5): `init`, `willSet` / `didSet`,
/// `observe` with its handler, casts, `type(of:)` and `NSError`. A Swift
/// program (`import Foundation` first) is not checked here: kvo-run compiles
/// it with swiftc (SPEC §11.0, KVORun's SwiftProgram).
extension Checker {
    /// Modules that make a file a Swift program when imported first (the
    /// ones KVORun's `SwiftProgram.isSwift` routes to the compiler).
    static let swiftModules: Set<String> = ["Foundation", "Cocoa", "UIKit", "AppKit"]

    /// Every `import` is refused: a scenario has none, and a Swift program is
    /// compiled by kvo-run's Swift route, never interpreted. kvo-run's front
    /// door sends a file that imports Foundation first there, so this is seen
    /// by a library user, or for an import that is not the first statement.
    func checkImports(_ statements: [Stmt]) {
        for (index, statement) in statements.enumerated() {
            guard case .importModule(let module, let location) = statement else { continue }
            let first = index == 0 && environment.classes.isEmpty && environment.globalNames.isEmpty
            if first && Self.swiftModules.contains(module) {
                error(.swiftProgram(module: module), at: location, length: 6)
            } else if Self.swiftModules.contains(module) {
                error(.importNotFirst(module: module, inREPL: replacesEarlierDeclarations), at: location, length: 6)
            } else {
                error(.importInScenario, at: location, length: 6)
            }
        }
    }

    /// A class's `init`, checked once every class is declared.
    func declareInitializer(_ decl: ClassDecl, _ cls: ScriptClass) {
        guard let initializer = decl.initializer else { return }
        let box = FunctionBox(
            name: "init", parameters: initializer.parameters, isStatic: false,
            location: initializer.location)
        box.labels = initializer.labels
        cls.initializer = box
        pendingBodies.append { [unowned self] in
            self.inBody(
                cls, parameters: initializer.parameters, name: "init", isAccessor: false,
                key: initializer.location
            ) {
                self.checkBlock(initializer.body)
            }
        }
    }

    /// A property's `willSet` / `didSet`.
    func declarePropertyObservers(_ decl: PropertyDecl, in cls: ScriptClass) {
        if decl.willSet != nil || decl.didSet != nil, decl.computed != nil || decl.setter != nil {
            error(.observersOnComputed(property: decl.name), at: decl.location)
        }
        for (body, parameter, key) in [
            (decl.willSet, "newValue", Resolutions.willSetKey(decl)),
            (decl.didSet, "oldValue", Resolutions.didSetKey(decl)),
        ] {
            guard let body else { continue }
            pendingBodies.append { [unowned self] in
                self.inBody(cls, parameters: [parameter], name: decl.name, isAccessor: true, key: key) {
                    self.checkBlock(body)
                }
            }
        }
    }

    /// A bare `o.observe(…)`: the token is released at once, as swiftc warns.
    func warnIfObservationUnused(_ expr: Expr) {
        guard case .call(.member(_, "observe", let location), _, _) = expr else { return }
        warning(.observationUnused, at: location, length: 8)
    }

    func checkCastType(_ type: TypeSyntax) -> ScriptClass? {
        guard case .object(let name) = type.type else { return nil }
        if let cls = environment.classes[name] { return cls }
        if !["NSNumber", "NSString", "NSObject", "NSError", "IndexSet", "NSKeyValueObservation"].contains(name) {
            let names = Array(environment.classes.keys) + ["Int", "Double", "Bool", "String"]
            error(
                .unknownType(name, suggestion: Suggestion.didYouMean(name, in: names)), at: type.location,
                length: type.length)
        }
        return nil
    }

    func checkSwiftBuiltin(_ name: String, _ arguments: [Argument], _ location: SourceLocation, _ length: Int) {
        let labels = arguments.map { $0.label ?? "_" }
        let expected: [[String]]
        switch name {
        case "type": expected = [["of"]]
        case "NSError": expected = [["domain", "code", "description"], ["domain", "code", "userInfo"]]
        default: expected = [["_"]]
        }
        if !expected.contains(labels) {
            error(.swiftBuiltinLabels(name: name, expected: expected), at: location, length: length)
        }
        for argument in arguments {
            if argument.label == "userInfo", name == "NSError" {
                checkUserInfo(argument.value)
            } else {
                checkExpr(argument.value)
            }
        }
    }

    static func isDescriptionKey(_ key: Expr) -> Bool {
        if case .identifier("NSLocalizedDescriptionKey", _, _) = key { return true }
        return false
    }

    /// An NSError's `userInfo`: nil, `[:]`, or `[NSLocalizedDescriptionKey: text]`
    /// (Apple's guide spells its validation error so). Other keys would print in
    /// the order of a hashed NSDictionary, which kvo-run cannot reproduce.
    func checkUserInfo(_ value: Expr) {
        switch value {
        case .literal(.null, _):
            return
        case .dictionaryLiteral(let pairs, _):
            for (key, value) in pairs {
                if !Self.isDescriptionKey(key) {
                    error(.userInfoKey, at: key.location)
                }
                checkExpr(value)
            }
            let descriptions = pairs.filter { Self.isDescriptionKey($0.key) }
            if descriptions.count > 1 {
                error(.userInfoKeyTwice, at: descriptions[1].key.location)
            }
        default:
            error(.userInfoLiteral, at: value.location)
        }
    }

    /// `Account(owner: p)` runs `init(owner:)`.
    func checkInitializerCall(_ cls: ScriptClass, _ box: FunctionBox, _ arguments: [Argument]) {
        let labels = arguments.map { $0.label ?? "_" }
        if labels != box.labels {
            let expected = box.labels.map { $0 + ":" }.joined()
            error(
                .initializerLabels(className: cls.info.name, expected: expected),
                at: arguments.first?.location ?? box.location)
        }
        checkArguments(arguments)
    }

    /// `o.observe(\.key, options: […]) { obj, change in … }`.
    func checkObserve(_ receiver: Expr, _ arguments: [Argument], _ location: SourceLocation) {
        let cls = checkExpr(receiver)
        let labels = arguments.map { $0.label ?? "_" }
        guard labels == ["_", "options", "changeHandler"] || labels == ["_", "changeHandler"] else {
            error(.observeArguments, at: location, length: 8)
            return
        }
        guard case .keyPath(let literal, let pathLocation) = arguments[0].value else {
            error(.observeKeyPath, at: arguments[0].location)
            return
        }
        if labels.count == 3 { checkExpr(arguments[1].value) }
        var root = cls
        if let name = literal.root {
            guard let named = environment.classes[name] else {
                error(
                    .unknownClass(name, suggestion: Suggestion.didYouMean(name, in: Array(environment.classes.keys))),
                    at: pathLocation, length: name.count + 1)
                return
            }
            root = named
        }
        checkObservedPath(literal, from: root, at: pathLocation)
        guard case .closure(let closure, let closureLocation) = arguments[arguments.count - 1].value else {
            error(.observeHandler, at: arguments[arguments.count - 1].location)
            return
        }
        guard closure.parameters.count == 2 else {
            error(.observeHandlerParameters, at: closureLocation)
            return
        }
        let outer = selfClass
        inBody(
            outer, parameters: closure.parameters, isStatic: outer == nil, name: "observe handler",
            isAccessor: false, key: closureLocation
        ) {
            self.checkBlock(closure.body)
        }
    }

    /// Each component must be a property.
    private func checkObservedPath(_ literal: KeyPathLiteral, from root: ScriptClass?, at location: SourceLocation) {
        var current = root
        for key in literal.components {
            guard let cls = current else { return }
            guard let property = cls.info.property(named: key) else {
                let names = cls.info.properties.map(\.name)
                error(
                    .noProperty(className: cls.info.name, key: key, suggestion: Suggestion.didYouMean(key, in: names)),
                    at: location, length: literal.path.count + 2)
                return
            }
            current = propertyClassOf(property)
        }
    }

    private func propertyClassOf(_ property: PropertyInfo) -> ScriptClass? {
        if case .object(let name) = property.type { return environment.classes[name] }
        return nil
    }
}
