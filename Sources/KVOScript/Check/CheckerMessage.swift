import KVOCore

/// What the checker reports. `suggestion` is `Suggestion.didYouMean`'s
/// ` (did you mean …?)`, or empty.
enum CheckerMessage: DiagnosticMessage {
    // Names
    case builtinName(String)
    case alreadyDeclaredAt(String, line: Int)
    case alreadyDeclared(String)
    case tooManyStoredProperties(className: String, limit: Int)
    case notInScope(String, suggestion: String)
    case duplicateParameter(String, function: String)
    case selfOutsideMethod
    case superOutsideMethod
    case errorOutsideCatch
    case returnOutsideFunction
    case declarationNotAtTopLevel(DeclarationKind)

    // Classes
    case inheritanceCycle(className: String)
    case classNameIsVariable(String)
    case unknownSuperclass(String, suggestion: String)
    case propertyRedeclared(String)
    case propertyInSuperclass(String, className: String)
    case staticMethodRedeclared(String)
    case methodRedeclared(String)
    case methodIsProperty(String, className: String)
    case initialValueType(valueType: String, property: String, declared: String)
    case unknownType(String, suggestion: String)
    case affectingPathThroughToMany(path: String, key: String, property: String)
    case hookSignature(method: String, signature: String)
    case observersOnComputed(property: String)

    // Calls
    case notCallable
    case printItemsFirst
    case printLabel(String)
    case arity(function: String, parameters: [String], given: Int)
    case assertArguments
    case notAFunction(String)
    case graphArguments
    case unknownClass(String, suggestion: String)
    case constructorNeedsLabels(className: String, firstProperty: String)
    case noStoredProperty(className: String, label: String, suggestion: String)
    case noStaticMethod(className: String, method: String)
    case argumentLabels(method: String, labels: [String], expected: [String])
    case noMethod(className: String, method: String, suggestion: String)
    case superHookSignature(method: String, signature: String)
    case noSuperMethod(className: String, method: String)
    case swiftBuiltinLabels(name: String, expected: [[String]])
    case initializerLabels(className: String, expected: String)

    // Expressions
    case unknownLiteral(String, suggestion: String)
    case dictionaryLiteral
    case superMemberNotCalled(String)
    case keyPathOutsideObserve
    case closureOutsideObserve
    case rangeOutsideFor
    case unknownOperator(String)
    case methodNotCalled(String)
    case noProperty(className: String, key: String, suggestion: String)
    case noKey(className: String, key: String, suggestion: String, consequence: String)

    // Statements
    case unknownExceptionName(String, suggestion: String)
    case assignToLet(String)
    case assignToName(String)
    case assignToExpression
    case assignToComputed(String)

    // Swift spellings
    case swiftProgram(module: String)
    case importNotFirst(module: String, inREPL: Bool)
    case importInScenario
    case userInfoKey
    case userInfoKeyTwice
    case userInfoLiteral
    case observeArguments
    case observeKeyPath
    case observeHandler
    case observeHandlerParameters
    case observationUnused

    enum DeclarationKind {
        case function, `class`, context, `import`
    }

    var id: MessageID { MessageID(domain: "checker", id: caseName) }

    private static let observeUsage = "write 'o.observe(\\.key, options: [.new]) { object, change in … }'"

    var text: String {
        switch self {
        case .builtinName(let name): return "'\(name)' is a built-in name; choose another"
        case .alreadyDeclaredAt(let name, let line):
            return "'\(name)' is already declared at line \(line); give one of them another name"
        case .alreadyDeclared(let name): return "'\(name)' is already declared; give one of them another name"
        case .tooManyStoredProperties(let className, let limit):
            return
                "class '\(className)' has more than \(limit) stored properties (its own and inherited); split it into smaller classes"
        case .notInScope(let name, let suggestion): return "cannot find '\(name)' in scope\(suggestion)"
        case .duplicateParameter(let name, let function): return "duplicate parameter '\(name)' in '\(function)'"
        case .selfOutsideMethod: return "'self' is only available inside methods"
        case .superOutsideMethod: return "'super' is only available inside methods"
        case .errorOutsideCatch: return "'error' is only available inside a 'catch' block"
        case .returnOutsideFunction: return "'return' outside of a function"
        case .declarationNotAtTopLevel(let kind):
            switch kind {
            case .function: return "functions can only be declared at top level"
            case .class: return "classes can only be declared at top level"
            case .context: return "contexts can only be declared at top level"
            case .import: return "'import' can only be written at top level"
            }

        case .inheritanceCycle(let className):
            return "class '\(className)' inherits from itself through its superclasses"
        case .classNameIsVariable(let name): return "'\(name)' is already a variable"
        case .unknownSuperclass(let name, let suggestion): return "unknown superclass '\(name)'\(suggestion)"
        case .propertyRedeclared(let name): return "invalid redeclaration of property '\(name)'"
        case .propertyInSuperclass(let name, let className):
            return
                "property '\(name)' is already declared in a superclass of '\(className)'; overriding properties is not supported"
        case .staticMethodRedeclared(let name): return "invalid redeclaration of 'static func \(name)'"
        case .methodRedeclared(let name): return "invalid redeclaration of 'func \(name)'"
        case .methodIsProperty(let name, let className): return "'\(name)' is already a property of '\(className)'"
        case .initialValueType(let valueType, let property, let declared):
            return "cannot use \(valueType) as the initial value of '\(property)', declared \(declared)"
        case .unknownType(let name, let suggestion): return "unknown type '\(name)'\(suggestion)"
        case .affectingPathThroughToMany(let path, let key, let property):
            return
                "the affecting key path '\(path)' goes through the to-many relationship '\(key)', which KVO cannot observe through: registering an observer of '\(property)' raises NSInvalidArgumentException. Observe each element instead (the guide's Department/totalSalary pattern)"
        case .hookSignature(let method, let signature): return "'\(method)' must take \(signature)"
        case .observersOnComputed(let property):
            return "'willSet' and 'didSet' observe a stored property; '\(property)' is computed"

        case .notCallable: return "cannot call this expression"
        case .printItemsFirst: return "print's items come before separator: and terminator:"
        case .printLabel(let label):
            return "print has no argument '\(label):'; it takes items, then separator: and terminator:"
        case .arity(let function, let parameters, let given):
            let expected = parameters.count
            return
                "'\(function)' takes \(expected) argument\(expected == 1 ? "" : "s") (\(parameters.joined(separator: ", "))), but \(given) \(given == 1 ? "was" : "were") given"
        case .assertArguments: return "'assert' takes a condition and an optional message"
        case .notAFunction(let name): return "cannot call '\(name)': it is not a function"
        case .graphArguments: return "'graph' takes the objects to draw from, as in 'graph(acct)'"
        case .unknownClass(let name, let suggestion): return "unknown class '\(name)'\(suggestion)"
        case .constructorNeedsLabels(let className, let firstProperty):
            return "arguments to '\(className)(…)' need property labels, as in '\(className)(\(firstProperty): …)'"
        case .noStoredProperty(let className, let label, let suggestion):
            return "'\(className)' has no stored property '\(label)'\(suggestion)"
        case .noStaticMethod(let className, let method): return "type '\(className)' has no static method '\(method)'"
        case .argumentLabels(let method, let labels, let expected):
            return
                "incorrect argument labels in call to '\(method)' (have '\(method)(\(labels.map { $0 + ":" }.joined()))', expected '\(expected.joined(separator: "', '"))')"
        case .noMethod(let className, let method, let suggestion):
            return "value of type '\(className)' has no method '\(method)'\(suggestion)"
        case .superHookSignature(let method, let signature): return "'super.\(method)' takes \(signature)"
        case .noSuperMethod(let className, let method): return "'\(className)' has no method '\(method)'"
        case .swiftBuiltinLabels(let name, let expected):
            let shown = expected.map { "\(name)(\($0.map { $0 + ":" }.joined()))" }.joined(separator: "' or '")
            return "'\(name)' is called as '\(shown)'"
        case .initializerLabels(let className, let expected):
            return "'\(className)(…)' runs 'init(\(expected))'; pass its arguments with those labels"

        case .unknownLiteral(let name, let suggestion): return "unknown literal '.\(name)'\(suggestion)"
        case .dictionaryLiteral: return ParserMessage.dictionaryLiteral.text
        case .superMemberNotCalled(let name): return "'super.\(name)' must be called: 'super.\(name)(…)'"
        case .keyPathOutsideObserve:
            return "a key path like '\\.balance' is the first argument of 'observe(…)'; elsewhere write the key as a "
                + "string: \"balance\""
        case .closureOutsideObserve:
            return
                "closures are only supported as the handler of 'observe(_:options:changeHandler:)'; declare a 'func' "
                + "instead"
        case .rangeOutsideFor: return "ranges can only be used in 'for … in'"
        case .unknownOperator(let op): return "unknown operator '\(op)'"
        case .methodNotCalled(let name): return "method '\(name)' must be called: '\(name)(…)'"
        case .noProperty(let className, let key, let suggestion):
            return "value of type '\(className)' has no property '\(key)'\(suggestion)"
        case .noKey(let className, let key, let suggestion, let consequence):
            return "\(className) has no key '\(key)'\(suggestion) (\(consequence))"

        case .unknownExceptionName(let name, let suggestion): return "unknown exception name '\(name)'\(suggestion)"
        case .assignToLet(let name):
            return "cannot assign to '\(name)': it is a 'let' constant; declare it with 'var' to change it"
        case .assignToName(let name): return "cannot assign to '\(name)'"
        case .assignToExpression: return "cannot assign to this expression"
        case .assignToComputed(let key): return "cannot assign to '\(key)': it is a computed property without a setter"

        case .swiftProgram(let module):
            return "this is a Swift program ('import \(module)' first), which kvo-run compiles with swiftc "
                + "rather than interpreting: run it with 'kvo-run FILE' (or 'kvo-run check FILE'); "
                + "without the import it is a scenario"
        case .importNotFirst(let module, let inREPL):
            return "'import \(module)' must be the first statement: it makes the file a Swift program, "
                + "which kvo-run compiles with swiftc; a scenario has no import"
                + (inREPL ? "; type :reset first to start the session over in Swift" : "")
        case .importInScenario:
            return "a scenario has no imports; 'import Foundation' as the first statement makes the file a Swift "
                + "program, which kvo-run compiles with swiftc"
        case .userInfoKey:
            return "an NSError's userInfo takes only NSLocalizedDescriptionKey here: "
                + "'[NSLocalizedDescriptionKey: \"…\"]'"
        case .userInfoKeyTwice: return "NSLocalizedDescriptionKey is given twice"
        case .userInfoLiteral:
            return "an NSError's userInfo is written here as a literal: "
                + "'[NSLocalizedDescriptionKey: \"…\"]', '[:]' or nil"
        case .observeArguments: return "'observe' takes a key path, options and a handler: \(Self.observeUsage)"
        case .observeKeyPath:
            return "the first argument of 'observe' is a key-path literal like '\\.balance'; \(Self.observeUsage)"
        case .observeHandler: return "the handler of 'observe' is a closure: \(Self.observeUsage)"
        case .observeHandlerParameters:
            return "the handler of 'observe' takes the object and the change: '{ object, change in … }'"
        case .observationUnused:
            return "result of call to 'observe(_:options:changeHandler:)' is unused; the observation ends at once"
        }
    }
}
