import Testing
@testable import KVOCore

/// The fast fixed-point form must print exactly what `Double.description`
/// prints wherever it answers.
@Suite struct ShortDecimalTests {
    @Test func matchesTheShortestRoundTripFormOnFewDecimals() {
        #expect(ShortDecimal.describe(0.1875) == "0.1875")
        #expect(ShortDecimal.describe(-12.0625) == "-12.0625")
        #expect(ShortDecimal.describe(0.001) == "0.001")
        #expect(ShortDecimal.describe(9999999.5) == "9999999.5")
        #expect(ShortDecimal.describe(0.1 + 0.2) == nil)  // 0.30000000000000004: 17 digits
        #expect(ShortDecimal.describe(1e-4) == nil)
        #expect(ShortDecimal.describe(1e7 + 0.5) == nil)
        // Every B5s component: multiples of 1/400 over L* 0...100.
        for l in 0...100 {
            for value in [(Double(l) + 16) * 0.75 / 100, ((Double(l) + 16) * 0.75 + 2.5) / 100] {
                #expect(ShortDecimal.describe(value) == value.description)
            }
        }
    }

    @Test func agreesWithDoubleDescriptionOnRandomValues() {
        var generator = SystemRandomNumberGenerator()
        var answered = 0
        for _ in 0..<200_000 {
            let decimals = Int.random(in: 0...9, using: &generator)
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let value = Double(Int.random(in: -99_999_999...99_999_999, using: &generator)) / scale
            guard value != value.rounded() else { continue }
            if let fast = ShortDecimal.describe(value) {
                answered += 1
                #expect(fast == value.description, "\(value)")
            }
            let raw = Double(
                bitPattern: UInt64.random(in: 0x3F50_0000_0000_0000...0x4160_0000_0000_0000, using: &generator))
            if let fast = ShortDecimal.describe(raw) { #expect(fast == raw.description, "\(raw)") }
        }
        #expect(answered > 100_000)
    }
}
