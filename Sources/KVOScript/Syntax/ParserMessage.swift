/// What the parser reports. `found` is the token the parser met instead, as
/// `Parser.describe` words it (`'x'`, `keyword 'in'`, `end of line`).
enum ParserMessage: DiagnosticMessage {
    /// `expectPunct`: `context` says where (`to start the parameter list`).
    case expectedPunctuation(String, context: String, found: String)
    /// `identifier`: `what` names what was expected (`a parameter name`).
    case expectedName(what: String, found: String)
    /// A comma-separated list that neither goes on nor ends.
    case expectedCommaOrClose(close: String, list: CommaList, found: String)
    case nestingTooDeep(maxNesting: Int)

    // Declarations
    case generics
    case genericType(name: String)
    case dictionaryType
    case protocolList
    case expectedClassBody(className: String)
    case unclosedClass(className: String)
    case unknownAttribute(name: String, suggestion: String)
    case secondInitializer
    case deinitializer
    case attributesOnMethod
    case expectedFuncAfterStatic
    case propertyNeedsTypeOrValue(name: String)
    case expectedMember(className: String, found: String)
    case computedPropertyWithValue
    case observerValueName(expected: String)
    case setterValueName
    /// `word`: what was written instead.
    case expectedAccessor(found: String)

    // Expressions
    case operatorsNeedParentheses(next: String, after: String)
    case isOperator
    case expectedMemberName(found: String)
    case expectedDotAfterSuper
    case dictionaryLiteral
    case expectedExpressionFoundKeyword(String)
    case expectedExpression(found: String)
    case unexpectedInInterpolation(found: String)

    // Statements
    case consecutiveStatements
    case expectedBlock(context: String, found: String)
    case unclosedBlock
    case unsupportedDeclaration(SwiftDeclaration)
    case staticOutsideClass
    case letNeedsValue(name: String)
    case expectedInAfterFor(name: String)
    case expectedCatch
    case attributeOutsideClass(found: String)

    // Swift source
    case expectedElseAfterGuard(found: String)
    case keyPathNeedsProperty
    case onlyKeyPathDirective
    case unclosedClosure

    /// The comma-separated lists, as `expectedCommaOrClose` names them.
    enum CommaList {
        case parameters, affectedBy, arguments, array, dictionary
    }

    var id: MessageID { MessageID(domain: "parser", id: caseName) }

    var text: String {
        switch self {
        case .expectedPunctuation(let p, let context, let found): return "expected '\(p)' \(context), found \(found)"
        case .expectedName(let what, let found): return "expected \(what), found \(found)"
        case .expectedCommaOrClose(let close, let list, let found):
            switch list {
            case .parameters: return "expected ',' or '\(close)' in the parameter list, found \(found)"
            case .affectedBy: return "expected ',' or '\(close)' in '@affectedBy(…)'"
            case .arguments: return "expected ',' or '\(close)' in the argument list, found \(found)"
            case .array: return "expected ',' or '\(close)' in the array literal, found \(found)"
            case .dictionary: return "expected ',' or '\(close)' in the dictionary literal, found \(found)"
            }
        case .nestingTooDeep(let maxNesting):
            return "nesting deeper than \(maxNesting) levels; split the expression or block"

        case .generics: return "generics are not supported; declare the class or function for the types it uses"
        case .genericType(let name):
            return "generic types like '\(name)<…>' are not supported; the types are Int, Double, Bool, "
                + "String, a class name, [T] and Set<T>"
        case .dictionaryType:
            return "dictionary types are not supported; use a class with one property per key, or an array"
        case .protocolList:
            return "protocols are not supported: a class here has one superclass and no protocol list; "
                + "'NSKeyValueObservingCustomization' is spelled with the static hooks "
                + "'automaticallyNotifiesObservers(key)' and 'keyPathsForValuesAffecting(key)'"
        case .expectedClassBody(let className): return "expected '{' to start the body of class '\(className)'"
        case .unclosedClass(let className): return "expected '}' to close class '\(className)'"
        case .unknownAttribute(let name, let suggestion): return "unknown attribute '@\(name)'\(suggestion)"
        case .secondInitializer: return "a class here has one 'init'; give the others' work to it"
        case .deinitializer:
            return "'deinit' is not supported; 'release(x)' ends an object's life, and its observers go with it"
        case .attributesOnMethod: return "'@manual' and '@affectedBy' apply to properties, not methods"
        case .expectedFuncAfterStatic: return "expected 'func' after 'static'"
        case .propertyNeedsTypeOrValue(let name):
            return "property '\(name)' needs a type ('var \(name): Double') or a value"
        case .expectedMember(let className, let found):
            return "expected 'var', 'let', 'func' or 'static func' in the body of class '\(className)', found \(found)"
        case .computedPropertyWithValue: return "a property with a value cannot also be computed"
        case .observerValueName(let expected): return "name the value '\(expected)'"
        case .setterValueName: return "name the new value 'newValue'"
        case .expectedAccessor(let found): return "expected 'get', 'set', 'willSet' or 'didSet', found '\(found)'"

        case .operatorsNeedParentheses(let next, let op): return "'\(next)' cannot follow '\(op)' without parentheses"
        case .isOperator: return "'is' is not supported; use 'as?' with 'if let': 'if let a = x as? Account { … }'"
        case .expectedMemberName(let found): return "expected a member name after '.', found \(found)"
        case .expectedDotAfterSuper: return "expected '.' after 'super'"
        case .dictionaryLiteral:
            return "dictionary literals are not supported; use a class with one property per key, or an array"
        case .expectedExpressionFoundKeyword(let keyword): return "expected an expression, found keyword '\(keyword)'"
        case .expectedExpression(let found): return "expected an expression, found \(found)"
        case .unexpectedInInterpolation(let found): return "unexpected \(found) in the interpolation"

        case .consecutiveStatements: return "consecutive statements on a line must be separated by ';'"
        case .expectedBlock(let context, let found): return "expected '{' \(context), found \(found)"
        case .unclosedBlock: return "expected '}' to close the block opened here"
        case .unsupportedDeclaration(let declaration): return declaration.advice
        case .staticOutsideClass: return "'static' is only allowed on methods inside a class"
        case .letNeedsValue(let name): return "'let \(name)' needs a value: 'let \(name) = …'"
        case .expectedInAfterFor(let name): return "expected 'in' after 'for \(name)'"
        case .expectedCatch: return "expected 'catch' after the 'do' block"
        case .attributeOutsideClass(let found):
            return "attributes like \(found) are only allowed on properties inside a class"

        case .expectedElseAfterGuard(let found): return "expected 'else' after the 'guard' condition, found \(found)"
        case .keyPathNeedsProperty: return "a key path names a property: '\\.balance' or '\\Account.balance'"
        case .onlyKeyPathDirective: return "only '#keyPath(…)' is supported after '#'"
        case .unclosedClosure: return "expected '}' to close the closure opened here"
        }
    }

    /// Swift declarations a scenario has no counterpart for.
    enum SwiftDeclaration: String {
        case `struct`, `protocol`, `enum`, `extension`, `typealias`

        /// What to write instead.
        var advice: String {
            switch self {
            case .struct:
                return
                    "structs are not supported: KVO observes only NSObject subclasses; declare 'class Name: NSObject' "
                    + "with '@objc dynamic var' properties"
            case .protocol: return "protocols are not supported: declare a superclass and override its methods"
            case .enum:
                return "enums are not supported; use Int or String properties, and the literals '.setting', "
                    + "'.insertion', '.removal', '.replacement' for change kinds"
            case .extension: return "extensions are not supported; declare the members in the class itself"
            case .typealias: return "type aliases are not supported; write the type itself"
            }
        }
    }
}
