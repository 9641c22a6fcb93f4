import KVOCore
import Testing
@testable import KVOScript

/// The library's signatures (`Library/`), which the checker reads, name
/// exactly what `Run/` implements: a signature with no implementation would
/// pass the checker and fail when run; an implementation with no signature
/// would be rejected by the checker.
@Suite struct LibraryTests {
    @Test func everyBuiltinSignatureHasAnImplementationAndNoMore() {
        #expect(Set(Builtins.table.keys) == BuiltinSignatures.all)
    }

    @Test func everyBinaryOperatorTheCheckerAcceptsIsImplemented() {
        let meter = WorkMeter()
        for op in BinaryOperators.all {
            #expect(Operators.general(op, meter: meter) != nil, "'\(op)' is checked but not implemented")
        }
        #expect(Operators.general("**", meter: meter) == nil)
    }

    @Test func signaturesNamedListsEveryOverloadSorted() {
        #expect(
            BuiltinSignatures.signatures(named: "removeObserver")
                == ["removeObserver(_:forKeyPath:)", "removeObserver(_:forKeyPath:context:)"])
        #expect(BuiltinSignatures.signature("value", ["forKey"]) == "value(forKey:)")
        #expect(BuiltinSignatures.names.contains("addObserver"))
    }

    @Test func constantValueFoldsLiteralsAndArraysOfLiterals() {
        let location = SourceLocation(line: 1, column: 1)
        #expect(Expr.literal(.int(3), location).constantValue == .int(3))
        #expect(
            Expr.arrayLiteral([.literal(.int(1), location), .literal(.string("a"), location)], location).constantValue
                == .array([.int(1), .string("a")]))
        #expect(Expr.arrayLiteral([.identifier("x", location, length: 1)], location).constantValue == nil)
    }
}
