import KVOCore
import Testing
@testable import KVOScript

/// Run-time errors are values too: each `RuntimeFailure` carries the
/// identifier of its `RuntimeMessage` case beside today's words.
@Suite struct RuntimeMessageTests {
    /// One of every case.
    static let everyCase: [RuntimeMessage] = [
        .selfUnavailable, .stepsExceeded(maxSteps: 1, chunk: 2), .statementsExceeded(maxSteps: 1), .outputUnwritable,
        .interrupted, .methodCallsTooDeep(maxDepth: 1), .accessorCallsTooDeep(maxDepth: 1, accessor: "a"),
        .initialValuesTooDeep(maxDepth: 1, className: "C"), .functionUnavailable("f"),
        .messageToDeallocated(className: "C", selector: "s", instance: "<C: c>"),
        .argumentCount(function: "f", parameters: 1, given: 2),
        .stringTooLarge(bytes: 1, limit: 2), .arrayTooLarge(elements: 1, limit: 2), .printTooLarge(limit: 1),
        .arithmeticOverflow(lhs: 1, op: "+", rhs: 2), .binaryOperatorTypes(op: "+", lhs: "Int", rhs: "String"),
        .divisionByZero, .remainderNeedsInts(lhs: "Int", rhs: "Double"), .remainderByZero,
        .remainderOverflow(lhs: 1, rhs: 2), .cannotCompare(op: "<", lhs: "Int", rhs: "String"), .negationOverflow(1),
        .unaryMinus(type: "String"), .conditionNotBool(type: "Int", value: "1"),
        .noBuiltinMethod(signature: "f(_:)"), .containsNeedsCollection(type: "Int"), .objectAtNeedsArray,
        .expectedString(what: "key", type: "Int", value: "1"), .expectedInt(what: "index", type: "String"),
        .expectedObject(what: "observer", type: "Int", value: "1"), .contextNotDeclared(type: "Int"),
        .unknownOption(type: "Int"), .optionsNotArray(type: "Int"), .unknownChangeKind, .unknownSetMutation,
        .indexesNotArray(type: "Int"), .expectedObjects(type: "Int"), .proxyNotAllowed, .needsArrayProxy(type: "Int"),
        .needsSetProxy(type: "Int"),
        .assertionFailed(message: ""), .graphNeedsObjects(type: "Int"),
        .initialValueType(type: "String", property: "p", declared: "Int"), .noMethodOnValue(type: "Int", method: "m"),
        .noMethod(className: "C", method: "m", suggestion: ""), .cannotAppend(type: "Int"),
        .superObserveValueNeedsObject, .noProperty(className: "C", key: "k", suggestion: ""),
        .noMember(type: "Int", name: "n"), .castFailed(type: "Int", written: "String"), .throwNeedsError,
        .internalError(what: "w"), .affectingNotArray(type: "Int"), .affectingNotStrings(type: "Int"),
        .assignType(type: "String", value: "\"x\"", name: "n", declared: "Int"), .releaseNeedsObject, .rangeNeedsInts,
        .rangeBounds(from: 2, op: "...", to: 1), .forInNeedsCollection(type: "Int"), .functionUsedAsValue("f"),
        .classUsedAsValue("C"), .subscriptAssignment(type: "Int"), .arrayIndexNotInt,
        .arrayIndexOutOfRange(index: 1, count: 1), .notAnObject(member: "m", type: "Int", value: "1"),
        .computedHasNoIvar(property: "p", className: "C"), .indexNotInt(type: "String"),
        .stringIndexOutOfRange(index: 1, count: 1), .cannotSubscript(type: "Int"),
        .printLabelNotString(label: "separator", type: "Int"),
    ]

    @Test func theIdentifierIsRuntimeAndTheCaseName() {
        #expect(RuntimeMessage.divisionByZero.id.description == "runtime.divisionByZero")
        #expect(
            RuntimeMessage.arrayIndexOutOfRange(index: 5, count: 2).id
                == MessageID(domain: "runtime", id: "arrayIndexOutOfRange"))
        #expect(RuntimeMessage.stepsExceeded(maxSteps: 3, chunk: 4).id.description == "runtime.stepsExceeded")
        #expect(
            RuntimeMessage.noProperty(className: "C", key: "k", suggestion: " (did you mean 'kk'?)").id.description
                == "runtime.noProperty")
    }

    @Test func everyCaseHasItsOwnIdentifierAndWords() {
        let ids = Self.everyCase.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.domain == "runtime" && !$0.id.isEmpty && !$0.id.contains("(") })
        #expect(Self.everyCase.allSatisfy { !$0.text.isEmpty })
    }

    @Test func theWordsAreTodays() {
        // The machine
        #expect(RuntimeMessage.selfUnavailable.text == "'self' is not available here")
        #expect(
            RuntimeMessage.argumentCount(function: "f", parameters: 1, given: 3).text == "'f' takes 1 argument, got 3")
        #expect(
            RuntimeMessage.argumentCount(function: "f", parameters: 2, given: 0).text == "'f' takes 2 arguments, got 0")
        #expect(
            RuntimeMessage.messageToDeallocated(className: "Person", selector: "greet", instance: "<Person: a>").text
                == "-[Person greet]: message sent to deallocated instance <Person: a>")
        #expect(
            RuntimeMessage.accessorCallsTooDeep(maxDepth: 9, accessor: "name").text
                == "accessor calls nested deeper than the maximum depth (9) in 'name'; raise it with --max-depth")
        // Operators and sizes
        #expect(
            RuntimeMessage.arithmeticOverflow(lhs: Int.max, op: "+", rhs: 1).text
                == "arithmetic overflow: 9223372036854775807 + 1 does not fit in Int")
        #expect(
            RuntimeMessage.remainderOverflow(lhs: Int.min, rhs: -1).text
                == "arithmetic overflow: -9223372036854775808 % -1")
        #expect(
            RuntimeMessage.conditionNotBool(type: "Int", value: "1").text == "a condition must be a Bool, got Int 1")
        // Built-in methods' arguments
        #expect(
            RuntimeMessage.unknownChangeKind.text == "a change kind is .setting, .insertion, .removal or .replacement")
        #expect(
            RuntimeMessage.expectedString(what: "key", type: "Int", value: "1").text
                == "expected a key string, got Int 1")
        // Calls and members
        #expect(RuntimeMessage.assertionFailed(message: "").text == "assertion failed")
        #expect(RuntimeMessage.assertionFailed(message: "x > 0").text == "assertion failed: x > 0")
        #expect(
            RuntimeMessage.throwNeedsError.text
                == "'throw' needs an error: 'throw NSError(domain: \"D\", code: 1, description: \"…\")'")
        #expect(
            RuntimeMessage.noMethod(className: "Person", method: "gret", suggestion: " (did you mean 'greet'?)").text
                == "value of type 'Person' has no method 'gret' (did you mean 'greet'?)")
        // Statements
        #expect(
            RuntimeMessage.arrayIndexOutOfRange(index: 3, count: 1).text
                == "index 3 out of range for an array of 1 element")
        #expect(
            RuntimeMessage.arrayIndexOutOfRange(index: 3, count: 2).text
                == "index 3 out of range for an array of 2 elements")
        #expect(
            RuntimeMessage.rangeBounds(from: 3, op: "..<", to: 1).text
                == "Range requires lowerBound <= upperBound (3 ..< 1)")
        #expect(RuntimeMessage.functionUsedAsValue("f").text == "'f' is a function; call it with 'f(…)'")
    }

    /// The failure a run throws carries the words, the identifier and, for a
    /// limit, which one.
    @Test func aThrownFailureCarriesItsIdentifier() throws {
        do {
            _ = try Operators.divide(.int(1), .int(0))
            Issue.record("no error")
        } catch ScriptError.runtime(let failure) {
            #expect(failure.message == "division by zero")
            #expect(failure.id == "runtime.divisionByZero")
            #expect(failure.limit == nil)
        }
        do {
            _ = try Operators.negate(.int(.min))
            Issue.record("no error")
        } catch ScriptError.runtime(let failure) {
            #expect(failure.message == "arithmetic overflow: -(-9223372036854775808) does not fit in Int")
            #expect(failure.id == RuntimeMessage.negationOverflow(0).id.description)
        }
        #expect(RuntimeFailure(RuntimeMessage.statementsExceeded(maxSteps: 5)).limit == .steps)
        #expect(RuntimeFailure(RuntimeMessage.methodCallsTooDeep(maxDepth: 5)).limit == .depth)
        #expect(RuntimeFailure(RuntimeMessage.accessorCallsTooDeep(maxDepth: 5, accessor: "a")).limit == nil)
        #expect(RuntimeFailure("from elsewhere").id == RuntimeFailure.freeTextID)
        #expect(RuntimeFailure.freeTextID == MessageID.freeText.description)
    }
}
