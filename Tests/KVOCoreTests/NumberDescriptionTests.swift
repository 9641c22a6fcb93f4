import Testing
@testable import KVOCore

/// SPEC §3, rule 4 of issue 27: numbers print as NSNumber describes them,
/// `%0.16g` for doubles, wherever Apple describes an NSNumber.
@Suite struct NumberDescriptionTests {
    @Test(
        arguments: [
            (0.07, "0.07000000000000001"), (0.1 + 0.2, "0.3"), (200.0, "200"), (3.5, "3.5"),
            (-2.5, "-2.5"), (1.0 / 3.0, "0.3333333333333333"), (2.0 / 3.0, "0.6666666666666666"),
            (0.0001, "0.0001"), (0.00001, "1e-05"), (1.5e-7, "1.5e-07"), (1e-300, "1e-300"),
            (1e16, "1e+16"), (1e20, "1e+20"), (123_456_789.123, "123456789.123"),
            (9_007_199_254_740_993.0, "9007199254740992"), (1234567890123456.7, "1234567890123457"),
            (-0.0, "-0"), (0.0, "0"), (.infinity, "inf"), (-.infinity, "-inf"), (.nan, "nan"),
        ] as [(Double, String)])
    func doublesAreDescribedWithSixteenSignificantDigits(value: Double, described: String) {
        #expect(Value.describe(double: value) == described)
    }

    /// The fast path (no printf) against the C library's own `%0.16g` on
    /// values of every magnitude: random bit patterns, short decimals, and
    /// neighbours of powers of ten and of halves (where rounding ties lie).
    @Test func theFastPathAgreesWithTheCLibraryEverywhere() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        var values: [Double] = []
        for _ in 0..<60_000 {
            let bits = next()
            let value = Double(bitPattern: bits)
            if value.isFinite { values.append(value) }
            // Decimals with up to 8 places, as scenarios write them.
            let decimals = Int(next() % 9)
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            values.append(Double(Int64(bitPattern: next()) % 100_000_000) / scale)
            // Around the range the fast path covers: 1e-7 ..< 1e16.
            let exponent = Int(next() % 25) - 8
            var power = 1.0
            if exponent >= 0 { for _ in 0..<exponent { power *= 10 } } else { for _ in 0..<(-exponent) { power /= 10 } }
            let mantissa = Double(next() % 1_000_000_007) / 1_000_000_007 * 10
            values.append(mantissa * power)
            values.append(power.nextUp)
            values.append(power.nextDown)
        }
        // Exact ties at the 17th digit (16 digits and a half, below 2^52)
        // and their neighbours: printf rounds them to even.
        for digits in stride(from: 1_000_000_000_000_000 as UInt64, to: 1_000_000_000_000_100, by: 1) {
            let tie = Double(digits) + 0.5
            values += [tie, tie.nextUp, tie.nextDown]
        }
        for digits in stride(from: 4_503_599_627_370_000 as UInt64, to: 4_503_599_627_370_400, by: 1) {
            values.append(Double(digits) + 0.5)
        }
        var mismatches: [String] = []
        for value in values where mismatches.count < 10 {
            let fast = Value.describe(double: value)
            let reference = NumberDescription.printf(value)
            if fast != reference { mismatches.append("\(value.bitPattern): \(fast) vs printf \(reference)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// The extremes of a Double, written by printf (outside the fast
    /// path's range) or at its edges, and given to string interpolation as
    /// bytes (`withPrintBytes`) exactly as `print` shows them.
    @Test(
        arguments: [
            (.greatestFiniteMagnitude, "1.797693134862316e+308"),
            (-.greatestFiniteMagnitude, "-1.797693134862316e+308"),
            (.leastNonzeroMagnitude, "4.940656458412465e-324"), (.leastNormalMagnitude, "2.225073858507201e-308"),
            (1e-7, "1e-07"), (-1.0000000000000002e-7, "-1e-07"),
            (9_999_999_999_999_998, "9999999999999998"), (0.1 + 0.2, "0.3"), (-0.0, "-0"), (1e16, "1e+16"),
            (0.00001, "1e-05"), (-0.000123456789012345, "-0.000123456789012345"), (.nan, "nan"), (-.infinity, "-inf"),
        ] as [(Double, String)])
    func extremeDoublesAreDescribedAsPrintfDoes(value: Double, described: String) {
        #expect(Value.describe(double: value) == described)
        if !value.isNaN { #expect(described == NumberDescription.printf(value)) }
        #expect(printBytes(.double(value)) == described)
    }

    @Test(arguments: [Int.min, Int.max, 0, -1, 7, 1_000_000])
    func intsGiveInterpolationTheirPrintDescription(value: Int) {
        #expect(printBytes(.int(value)) == String(value))
    }

    @Test func stringsGiveInterpolationTheirBytesAndOtherValuesNone() {
        #expect(printBytes(.string("héllo")) == "héllo")
        let native = "a native string, longer than fifteen bytes: ü"
        #expect(printBytes(.string(native)) == native)
        #expect(printBytes(.bool(true)) == nil)
        #expect(printBytes(.array([.int(1)])) == nil)
    }

    @Test func numbersAreWrittenAtTheEndOfABufferUnlessOnlyPrintfWritesThem() {
        var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &storage) { buffer in
            func written(_ value: Value) -> String? {
                value.writeNumberPrintBytes(into: buffer).map {
                    String(decoding: UnsafeRawBufferPointer(rebasing: buffer[$0...]), as: UTF8.self)
                }
            }
            #expect(written(.double(-0.0001234567890123456)) == "-0.0001234567890123456")
            #expect(written(.double(0.07)) == "0.07000000000000001")
            #expect(written(.int(Int.min)) == "-9223372036854775808")
            #expect(written(.double(1e300)) == nil)  // the C library's
            #expect(written(.string("7")) == nil)
        }
    }

    private func printBytes(_ value: Value) -> String? {
        var text: String?
        let written = value.withPrintBytes { text = String(decoding: $0, as: UTF8.self) }
        #expect(written == (text != nil))
        return text
    }

    @Test func printShowsTheNumberBareAndCollectionsQuoteItUnlessItIsDigits() {
        #expect(Value.double(0.07).printDescription == "0.07000000000000001")
        #expect(Value.double(-1).printDescription == "-1")
        #expect(Value.int(-1).printDescription == "-1")
        #expect(Value.double(0.07).collectionDescription == "\"0.07000000000000001\"")
        #expect(Value.double(200).collectionDescription == "200")
        #expect(Value.double(1e20).collectionDescription == "\"1e+20\"")
        #expect(Value.double(.nan).collectionDescription == "nan")
        #expect(Value.double(-.infinity).collectionDescription == "\"-inf\"")
        // Change dictionaries describe their values the same way.
        let change = Change(kind: .setting, new: .double(100.5), old: .double(200))
        #expect(change.description == "{kind = 1; new = \"100.5\"; old = 200}")
    }
}
