import KVOCore

/// What a run-time error says, as a value: the counterpart of the stages'
/// `CheckerMessage` for errors found while the program runs. A case is
/// built only when the error happens; `ScriptError.runtime(_:)` turns it
/// into a `RuntimeFailure` out of line, so the hot functions that can throw
/// stay small.
enum RuntimeMessage: DiagnosticMessage {
    // The machine
    case selfUnavailable
    case stepsExceeded(maxSteps: Int, chunk: Int)
    case statementsExceeded(maxSteps: Int)
    case outputUnwritable
    case interrupted
    case timeLimitPassed(seconds: Double, setBy: String)
    case methodCallsTooDeep(maxDepth: Int)
    case accessorCallsTooDeep(maxDepth: Int, accessor: String)
    case initialValuesTooDeep(maxDepth: Int, className: String)
    case functionUnavailable(String)
    /// `-[Class selector]: message sent to deallocated instance <…>`.
    case messageToDeallocated(className: String, selector: String, instance: String)
    case argumentCount(function: String, parameters: Int, given: Int)

    // Operators and sizes
    case stringTooLarge(bytes: Int, limit: Int)
    case arrayTooLarge(elements: Int, limit: Int)
    case printTooLarge(limit: Int)
    case arithmeticOverflow(lhs: Int, op: String, rhs: Int)
    case binaryOperatorTypes(op: String, lhs: String, rhs: String)
    case divisionByZero
    case remainderNeedsInts(lhs: String, rhs: String)
    case remainderByZero
    case remainderOverflow(lhs: Int, rhs: Int)
    case cannotCompare(op: String, lhs: String, rhs: String)
    case negationOverflow(Int)
    case unaryMinus(type: String)
    case conditionNotBool(type: String, value: String)

    // Built-in methods' arguments
    case noBuiltinMethod(signature: String)
    case containsNeedsCollection(type: String)
    case objectAtNeedsArray
    case expectedString(what: String, type: String, value: String)
    case expectedInt(what: String, type: String)
    case expectedObject(what: String, type: String, value: String)
    case contextNotDeclared(type: String)
    case unknownOption(type: String)
    case optionsNotArray(type: String)
    case unknownChangeKind
    case unknownSetMutation
    case indexesNotArray(type: String)
    case expectedObjects(type: String)
    case proxyNotAllowed
    case needsArrayProxy(type: String)
    case needsSetProxy(type: String)

    // Calls and members
    case assertionFailed(message: String)
    case graphNeedsObjects(type: String)
    case initialValueType(type: String, property: String, declared: String)
    case noMethodOnValue(type: String, method: String)
    /// `suggestion`: `Suggestion.didYouMean`'s ` (did you mean …?)`, or empty.
    case noMethod(className: String, method: String, suggestion: String)
    case cannotAppend(type: String)
    case superObserveValueNeedsObject
    case noProperty(className: String, key: String, suggestion: String)
    case noMember(type: String, name: String)
    case castFailed(type: String, written: String)
    case throwNeedsError
    case internalError(what: String)
    case affectingNotArray(type: String)
    case affectingNotStrings(type: String)

    // Statements
    case assignType(type: String, value: String, name: String, declared: String)
    case releaseNeedsObject
    case rangeNeedsInts
    case rangeBounds(from: Int, op: String, to: Int)
    case forInNeedsCollection(type: String)
    case functionUsedAsValue(String)
    case classUsedAsValue(String)
    case subscriptAssignment(type: String)
    case arrayIndexNotInt
    case arrayIndexOutOfRange(index: Int, count: Int)
    case notAnObject(member: String, type: String, value: String)
    case computedHasNoIvar(property: String, className: String)
    case indexNotInt(type: String)
    case stringIndexOutOfRange(index: Int, count: Int)
    case cannotSubscript(type: String)
    case printLabelNotString(label: String, type: String)

    var id: MessageID { MessageID(domain: "runtime", id: caseName) }

    /// The limit a run went past, for the front end's advice; nil for the
    /// limits whose words already say how to raise them.
    var limit: RuntimeFailure.Limit? {
        switch self {
        case .stepsExceeded, .statementsExceeded: return .steps
        case .methodCallsTooDeep: return .depth
        default: return nil
        }
    }

    /// `5`, `0.5`: as `--timeout` was given.
    static func formatSeconds(_ seconds: Double) -> String {
        // Int() of a huge value (`--timeout 1e300`) would trap.
        abs(seconds) < 1e15 && seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    var text: String {
        switch self {
        case .selfUnavailable: return "'self' is not available here"
        case .stepsExceeded(let maxSteps, let chunk):
            return
                "more than \(maxSteps) steps executed (statements, and one step per \(chunk) units of work inside long operations such as comparing or describing large values)"
        case .statementsExceeded(let maxSteps): return "more than \(maxSteps) statements executed"
        case .outputUnwritable: return "stopped: the output cannot be written"
        case .interrupted: return "interrupted"
        case .timeLimitPassed(let seconds, let setBy):
            return
                "the scenario ran longer than \(Self.formatSeconds(seconds)) s and was stopped (\(setBy)); does a loop never end?"
        case .methodCallsTooDeep(let maxDepth): return "method calls nested deeper than the maximum depth (\(maxDepth))"
        case .accessorCallsTooDeep(let maxDepth, let accessor):
            return
                "accessor calls nested deeper than the maximum depth (\(maxDepth)) in '\(accessor)'; raise it with --max-depth"
        case .initialValuesTooDeep(let maxDepth, let className):
            return
                "initial values nested deeper than the maximum depth (\(maxDepth)) creating '\(className)'; does a property's initial value create its own class? (--max-depth raises the limit)"
        case .functionUnavailable(let name): return "'\(name)' is not available: its declaration has errors"
        case .messageToDeallocated(let className, let selector, let instance):
            return "-[\(className) \(selector)]: message sent to deallocated instance \(instance)"
        case .argumentCount(let function, let parameters, let given):
            return "'\(function)' takes \(parameters) argument\(parameters == 1 ? "" : "s"), got \(given)"

        case .stringTooLarge(let bytes, let limit):
            return "string of \(bytes) bytes is larger than the limit of \(limit) bytes"
        case .arrayTooLarge(let elements, let limit):
            return "array of \(elements) elements is larger than the limit of \(limit) elements"
        case .printTooLarge(let limit):
            return "print would write more than \(limit) bytes; print fewer or smaller values at a time"
        case .arithmeticOverflow(let lhs, let op, let rhs):
            return "arithmetic overflow: \(lhs) \(op) \(rhs) does not fit in Int"
        case .binaryOperatorTypes(let op, let lhs, let rhs):
            return "binary operator '\(op)' cannot be applied to \(lhs) and \(rhs)"
        case .divisionByZero: return "division by zero"
        case .remainderNeedsInts(let lhs, let rhs): return "binary operator '%' needs two Ints, got \(lhs) and \(rhs)"
        case .remainderByZero: return "division by zero in remainder"
        case .remainderOverflow(let lhs, let rhs): return "arithmetic overflow: \(lhs) % \(rhs)"
        case .cannotCompare(let op, let lhs, let rhs): return "binary operator '\(op)' cannot compare \(lhs) and \(rhs)"
        case .negationOverflow(let value): return "arithmetic overflow: -(\(value)) does not fit in Int"
        case .unaryMinus(let type): return "unary operator '-' cannot be applied to \(type)"
        case .conditionNotBool(let type, let value): return "a condition must be a Bool, got \(type) \(value)"

        case .noBuiltinMethod(let signature): return "no method \(signature)"
        case .containsNeedsCollection(let type): return "contains(_:) needs an array, a set or a string, not \(type)"
        case .objectAtNeedsArray: return "object(at:) needs an array"
        case .expectedString(let what, let type, let value): return "expected a \(what) string, got \(type) \(value)"
        case .expectedInt(let what, let type): return "expected an Int \(what), got \(type)"
        case .expectedObject(let what, let type, let value):
            return "expected an object as the \(what), got \(type) \(value)"
        case .contextNotDeclared(let type):
            return "a context must be declared with 'context NAME' or be nil, got \(type)"
        case .unknownOption(let type): return "options are .new, .old, .initial and .prior; got \(type)"
        case .optionsNotArray(let type): return "options are written [.new, .old]; got \(type)"
        case .unknownChangeKind: return "a change kind is .setting, .insertion, .removal or .replacement"
        case .unknownSetMutation: return "a set mutation is .union, .minus, .intersect or .set"
        case .indexesNotArray(let type): return "indexes are written [0, 2]; got \(type)"
        case .expectedObjects(let type): return "expected an array or a set of objects, got \(type)"
        case .proxyNotAllowed: return "pass the objects as an array, not a proxy"
        case .needsArrayProxy(let type): return "this method needs a mutableArrayValue(forKey:) proxy, not \(type)"
        case .needsSetProxy(let type): return "this method needs a mutableSetValue(forKey:) proxy, not \(type)"

        case .assertionFailed(let message): return "assertion failed" + (message.isEmpty ? "" : ": \(message)")
        case .graphNeedsObjects(let type): return "graph(…) takes objects; got \(type)"
        case .initialValueType(let type, let property, let declared):
            return "cannot use \(type) as the initial value of '\(property)', declared \(declared)"
        case .noMethodOnValue(let type, let method): return "value of type \(type) has no method '\(method)'"
        case .noMethod(let className, let method, let suggestion):
            return "value of type '\(className)' has no method '\(method)'\(suggestion)"
        case .cannotAppend(let type): return "cannot append to \(type)"
        case .superObserveValueNeedsObject: return "super.observeValue needs the observed object"
        case .noProperty(let className, let key, let suggestion):
            return "value of type '\(className)' has no property '\(key)'\(suggestion)"
        case .noMember(let type, let name): return "value of type \(type) has no member '\(name)'"
        case .castFailed(let type, let written):
            return "Fatal error: Could not cast value of type '\(type)' to '\(written)'"
        case .throwNeedsError:
            return "'throw' needs an error: 'throw NSError(domain: \"D\", code: 1, description: \"…\")'"
        case .internalError(let what): return "internal error: \(what) after a successful check; please report it"
        case .affectingNotArray(let type):
            return "keyPathsForValuesAffecting must return an array of key paths, got \(type)"
        case .affectingNotStrings(let type):
            return "keyPathsForValuesAffecting must return key-path strings, got \(type)"

        case .assignType(let type, let value, let name, let declared):
            return "cannot assign \(type) \(value) to '\(name)' of type \(declared)"
        case .releaseNeedsObject: return "release needs an object"
        case .rangeNeedsInts: return "a range needs Int bounds"
        case .rangeBounds(let from, let op, let to):
            return "Range requires lowerBound <= upperBound (\(from) \(op) \(to))"
        case .forInNeedsCollection(let type): return "for-in needs an array, a set or a range, got \(type)"
        case .functionUsedAsValue(let name): return "'\(name)' is a function; call it with '\(name)(…)'"
        case .classUsedAsValue(let name): return "'\(name)' is a class; create an instance with '\(name)()'"
        case .subscriptAssignment(let type): return "cannot assign through a subscript of \(type)"
        case .arrayIndexNotInt: return "an array index must be an Int"
        case .arrayIndexOutOfRange(let index, let count):
            return "index \(index) out of range for an array of \(count) element\(count == 1 ? "" : "s")"
        case .notAnObject(let member, let type, let value):
            return "cannot use '.\(member)' on \(type) \(value): it is not an object"
        case .computedHasNoIvar(let property, let className):
            return "computed property '\(property)' of \(className) has no instance variable"
        case .indexNotInt(let type): return "an index must be an Int, got \(type)"
        case .stringIndexOutOfRange(let index, let count):
            return "index \(index) out of range for a string of \(count) characters"
        case .cannotSubscript(let type): return "cannot subscript \(type)"
        case .printLabelNotString(let label, let type): return "print's \(label): must be a string, not \(type)"
        }
    }
}

extension RuntimeFailure {
    init(_ message: RuntimeMessage, line: Int? = nil, column: Int? = nil) {
        self.init(message.text, id: message.id.description, line: line, column: column, limit: message.limit)
    }
}

extension ScriptError {
    /// The error for `message`, built out of line: a throwing site in a hot
    /// function only constructs the case and calls this.
    @inline(never)
    static func runtime(_ message: RuntimeMessage) -> ScriptError { .runtime(RuntimeFailure(message)) }
}
