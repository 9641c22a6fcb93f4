import KVOCore

extension Parser {
    private mutating func parseParameters() throws -> [String] {
        try parseLabeledParameters().names
    }

    private mutating func parseLabeledParameters() throws -> (names: [String], labels: [String]) {
        try expectPunct("(", "to start the parameter list")
        var names: [String] = []
        var labels: [String] = []
        skipNewlines()
        while !isPunct(")") {
            var (name, _) = try identifierOrUnderscore()
            var label = name
            if case .identifier(let second) = current.kind {  // `label name`
                name = second
                advance()
            }
            labels.append(label == "_" ? "_" : label)
            label = ""
            if isPunct(":") {
                advance()
                _ = try parseType()
            }
            names.append(name)
            try commaOrClose(")", in: .parameters)
        }
        advance()
        return (names, labels)
    }

    private mutating func identifierOrUnderscore() throws -> (String, Token) {
        try identifier("a parameter name")
    }

    mutating func parseFunction(isStatic: Bool) throws -> FunctionDecl {
        let start = current
        advance()  // func
        let (name, _) = try identifier("a function name after 'func'")
        if isPunct("<") { throw fail(.generics) }
        let (parameters, labels) = try parseLabeledParameters()
        if case .identifier("throws") = current.kind { advance() }
        if isPunct("->") {
            advance()
            _ = try parseType()
        }
        let body = try parseBlock("to start the body of '\(name)'")
        return FunctionDecl(
            name: name, parameters: parameters, labels: labels, body: body, isStatic: isStatic,
            location: start.location)
    }

    mutating func parseType() throws -> TypeSyntax {
        try parseType(allowDictionary: true)
    }

    /// A property's type may not be a dictionary; a parameter's (observeValue's `change`) may.
    mutating func parseType(allowDictionary allowDictionaryType: Bool) throws -> TypeSyntax {
        let start = current
        try enter()
        defer { leave() }
        var type: ValueType
        var swiftName: String
        var isDictionary = false
        if isPunct("[") {
            advance()
            let element = try parseType()
            if isPunct(":") {
                // `[NSKeyValueChangeKey: Any]`: observeValue's change parameter.
                advance()
                let value = try parseType()
                type = .any
                swiftName = "Dictionary<\(element.swiftName), \(value.swiftName)>"
                isDictionary = true
            } else {
                type = .array(element.type)
                swiftName = "Array<\(element.swiftName)>"
            }
            try expectPunct("]", "to close the array type")
        } else {
            let (name, _) = try identifier("a type")
            swiftName = name
            switch name {
            case "Int": type = .int
            case "Double", "Float", "CGFloat": type = .double
            case "Bool": type = .bool
            case "String": type = .string
            case "Any", "AnyObject", "NSObject", "NSKeyValueObservation", "UnsafeMutableRawPointer", "IndexSet":
                type = .any
            case "Set", "Array", "Optional":
                try expectPunct("<", "after '\(name)'")
                let element = try parseType()
                try expectPunct(">", "to close '\(name)<…>'")
                swiftName = "\(name)<\(element.swiftName)>"
                switch name {
                case "Set": type = .set(element.type)
                case "Array": type = .array(element.type)
                default: type = element.type
                }
            default:
                if isPunct("<") {
                    throw fail(.genericType(name: name))
                }
                type = .object(name)
            }
        }
        while isPunct("?") || isPunct("!") {
            advance()
            swiftName = "Optional<\(swiftName)>"
        }
        let length = max(1, current.location.column - start.location.column)
        var syntax = TypeSyntax(type: type, location: start.location, length: length)
        syntax.swiftName = swiftName
        if isDictionary && !allowDictionaryType {
            throw fail(.dictionaryType, at: start)
        }
        return syntax
    }

    // MARK: Classes

    mutating func parseClass() throws -> ClassDecl {
        let start = current
        advance()
        let (name, _) = try identifier("a class name after 'class'")
        if isPunct("<") { throw fail(.generics) }
        var superclass: (String, SourceLocation)?
        if isPunct(":") {
            advance()
            let (superName, token) = try identifier("a superclass name")
            superclass = (superName, token.location)
            if isPunct(",") {
                throw fail(.protocolList)
            }
        }
        skipNewlines()
        guard isPunct("{") else { throw fail(.expectedClassBody(className: name)) }
        let open = current
        advance()
        try enter()
        defer { leave() }
        var decl = ClassDecl(name: name, superclass: superclass, properties: [], methods: [], location: start.location)
        while true {
            while current.kind == .newline || isPunct(";") { advance() }
            if isPunct("}") {
                advance()
                break
            }
            if current.kind == .eof { throw fail(.unclosedClass(className: name), at: open) }
            let start = index
            do {
                try parseMember(into: &decl)
                try endStatement()
            } catch is Abandon {
                synchronize()
                if index == start { advance() }
            }
        }
        return decl
    }

    private mutating func parseMember(into decl: inout ClassDecl) throws {
        var isManual = false
        var affectedBy: [(String, SourceLocation)] = []
        while case .attribute(let name) = current.kind {
            let token = current
            advance()
            switch name {
            case "manual":
                isManual = true
            case "affectedBy":
                try expectPunct("(", "after '@affectedBy'")
                skipNewlines()
                while !isPunct(")") {
                    let pathStart = current
                    var path = ""
                    if case .string(let parts) = current.kind, parts.count == 1, case .text(let text) = parts[0] {
                        path = text
                        advance()
                    } else {
                        let (first, _) = try identifier("a key path in '@affectedBy'")
                        path = first
                        while isPunct(".") {
                            advance()
                            let (next, _) = try identifier("a key after '.'")
                            path += "." + next
                        }
                    }
                    affectedBy.append((path, pathStart.location))
                    try commaOrClose(")", in: .affectedBy)
                }
                advance()
            // `@objc`, `dynamic` are accepted and ignored: every property of a
            // scenario class behaves as `@objc dynamic` (SPEC §11.1).
            case "objc":
                if isPunct("(") {  // `@objc(validateName:error:)`: the selector name is not used
                    while !isPunct(")") && current.kind != .eof { advance() }
                    advance()
                }
            case "dynamic", "objcMembers":
                break
            default:
                throw fail(
                    .unknownAttribute(
                        name: name, suggestion: Suggestion.didYouMean(name, in: ["manual", "affectedBy"])),
                    at: token)
            }
            skipNewlines()
        }
        while case .identifier(let word) = current.kind, word == "dynamic" || Self.modifiers.contains(word) {
            advance()
            skipNewlines()
        }
        // `class func` is the class's own method, as `static func` (Swift's
        // spelling of Apple's `override class func automaticallyNotifiesObservers…`:
        // read as an instance method, the hook was silently never called).
        // `class var` declares a property as before.
        var isClassMethod = false
        if isKeyword(.class), peekKind() == .keyword(.func) || peekKind() == .keyword(.var) {
            isClassMethod = peekKind() == .keyword(.func)
            advance()
        }
        let start = current
        switch current.kind {
        case .identifier("init"):
            advance()
            if isPunct("?") || isPunct("!") { advance() }
            let (parameters, labels) = try parseLabeledParameters()
            let body = try parseBlock("to start the body of 'init'")
            if decl.initializer != nil {
                throw fail(.secondInitializer, at: start)
            }
            decl.initializer = FunctionDecl(
                name: "init", parameters: parameters, labels: labels, body: body,
                isStatic: false, location: start.location)
        case .identifier("deinit"):
            throw fail(.deinitializer)
        case .keyword(.func):
            if isManual || !affectedBy.isEmpty {
                throw fail(.attributesOnMethod, at: start)
            }
            decl.methods.append(try parseFunction(isStatic: isClassMethod))
        case .keyword(.static):
            advance()
            guard isKeyword(.func) else { throw fail(.expectedFuncAfterStatic) }
            decl.methods.append(try parseFunction(isStatic: true))
        case .keyword(.var), .keyword(.let):
            advance()
            let (name, _) = try identifier("a property name")
            var property = PropertyDecl(
                name: name, type: nil, initial: nil, computed: nil, setter: nil,
                isManual: isManual, affectedBy: affectedBy, location: start.location)
            if isPunct(":") {
                advance()
                property.type = try parseType(allowDictionary: false)
            }
            if isPunct("=") {
                advance()
                skipNewlines()
                property.initial = try parseExpression(allowTrailingBlock: false)
            }
            if isPunct("{") {
                try parseAccessors(into: &property)
            }
            if property.type == nil && property.initial == nil && property.computed == nil {
                throw fail(.propertyNeedsTypeOrValue(name: name), at: start)
            }
            decl.properties.append(property)
        default:
            throw fail(.expectedMember(className: decl.name, found: describe(current)))
        }
    }

    /// `{ expr }` (computed), `{ get { expr } }`, `{ set { … } }` or both.
    private mutating func parseAccessors(into property: inout PropertyDecl) throws {
        let open = current
        advance()
        try enter()
        defer { leave() }
        skipNewlines()
        let isAccessorList: Bool
        if case .identifier(let word) = current.kind, ["get", "set", "willSet", "didSet"].contains(word),
            peekKind() == .punct("{") || peekKind() == .punct("(")
        {
            isAccessorList = true
        } else {
            isAccessorList = false
        }
        if !isAccessorList {
            if property.initial != nil { throw fail(.computedPropertyWithValue, at: open) }
            if isKeyword(.return) { advance() }
            property.computed = try parseExpression()
            skipNewlines()
            try expectPunct("}", "to close the computed property")
            return
        }
        while case .identifier(let word) = current.kind {
            advance()
            if word == "get" {
                try expectPunct("{", "after 'get'")
                skipNewlines()
                if isKeyword(.return) { advance() }
                property.computed = try parseExpression()
                skipNewlines()
                try expectPunct("}", "to close 'get'")
            } else if word == "willSet" || word == "didSet" {
                let implicit = word == "willSet" ? "newValue" : "oldValue"
                if isPunct("(") {
                    advance()
                    let (name, token) = try identifier("the value's name")
                    if name != implicit { throw fail(.observerValueName(expected: implicit), at: token) }
                    try expectPunct(")", "after the value's name")
                }
                let body = try parseBlock("after '\(word)'")
                if word == "willSet" { property.willSet = body } else { property.didSet = body }
            } else if word == "set" {
                if isPunct("(") {
                    advance()
                    let (name, token) = try identifier("the new value's name")
                    if name != "newValue" { throw fail(.setterValueName, at: token) }
                    try expectPunct(")", "after the new value's name")
                }
                property.setter = try parseBlock("after 'set'")
            } else {
                throw fail(.expectedAccessor(found: word))
            }
            skipNewlines()
        }
        try expectPunct("}", "to close the property's accessors")
    }
}
