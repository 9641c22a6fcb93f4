import Testing
@testable import KVOCore

/// NSDecimalNumber as `@sum` and `@avg` give it (SPEC §5: up to 38
/// significant digits; the average of 14 integers prints
/// `89.857142857142857142857142857142857142`).
@Suite struct DecimalNumberTests {
    func decimal(_ int: Int) -> DecimalNumber { DecimalNumber(int) }

    @Test func theSpecsAverageOfFourteenIntegers() throws {
        let scores = [90, 85, 77, 93, 100, 88, 91, 79, 95, 84, 87, 92, 89, 108].map(Value.int)
        #expect(Value.average(scores).printDescription == "89.857142857142857142857142857142857142")
        #expect(Value.sum(scores).printDescription == "1258")
    }

    @Test func aQuotientKeeps38SignificantDigitsCutOff() throws {
        #expect(decimal(2).divided(by: 3)?.description == "0.66666666666666666666666666666666666666")
        #expect(decimal(20).divided(by: 3)?.description == "6.6666666666666666666666666666666666666")
        #expect(decimal(1).divided(by: 7)?.description == "0.14285714285714285714285714285714285714")
        #expect(decimal(-2).divided(by: 3)?.description == "-0.66666666666666666666666666666666666666")
        #expect(decimal(885).divided(by: 2)?.description == "442.5")
        #expect(decimal(600).divided(by: 3)?.description == "200")
    }

    @Test func doublesEnterWithTheirShortestDigitsAndAddExactly() throws {
        #expect(Value.sum([.double(0.1), .double(0.2)]).printDescription == "0.3")
        #expect(Value.sum([.double(1e-10), .int(1)]).printDescription == "1.0000000001")
        #expect(Value.sum([.double(2.5), .int(-3)]).printDescription == "-0.5")
        #expect(Value.sum([.double(1e30)]).printDescription == "1000000000000000000000000000000")
        #expect(Value.sum([.int(.max), .int(.max)]).printDescription == "18446744073709551614")
        #expect(Value.sum([.null, .bool(true), .int(2)]).printDescription == "3")
    }

    @Test func whatNoDecimalHoldsFallsBackToADoubleSum() throws {
        #expect(Value.sum([.double(.infinity), .int(1)]) == .double(.infinity))
        #expect(Value.sum([.double(1e300), .int(1)]) == .double(1e300))
    }

    @Test func emptyCollections() throws {
        #expect(Value.sum([]).printDescription == "0")
        #expect(Value.average([]) == .null)
    }
}
