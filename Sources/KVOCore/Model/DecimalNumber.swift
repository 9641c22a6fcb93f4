/// An NSDecimalNumber, what `@sum` and `@avg` give (SPEC §5): a decimal
/// `mantissa × 10^exponent` with a 128-bit mantissa (NSDecimal's eight
/// 16-bit words) and an exponent from -128 through 127.
///
/// Only what the operators need: a number converted in (an Int exactly; a
/// Double through its shortest round-trip digits, so 0.1 is 0.1), addition,
/// division by a count, and the description, which NSDecimalNumber writes
/// out in full without an exponent (`89.857142857142857142857142857142857142`).
public struct DecimalNumber: Hashable, Sendable {
    public let isNegative: Bool
    public let mantissa: UInt128
    public let exponent: Int

    /// NSDecimal's precision: a quotient keeps 38 significant digits.
    static let maxDigits = 38
    static let exponentRange = -128...127

    /// With trailing zeros moved into the exponent, as NSDecimalCompact does;
    /// nil past NSDecimal's exponent range.
    init?(isNegative: Bool, mantissa: UInt128, exponent: Int) {
        var mantissa = mantissa
        var exponent = exponent
        while mantissa != 0, mantissa % 10 == 0, exponent < Self.exponentRange.upperBound {
            mantissa /= 10
            exponent += 1
        }
        if mantissa == 0 { exponent = 0 }
        guard Self.exponentRange.contains(exponent) else { return nil }
        self.isNegative = isNegative && mantissa != 0
        self.mantissa = mantissa
        self.exponent = exponent
    }

    public init(_ int: Int) {
        isNegative = int < 0
        mantissa = UInt128(int.magnitude)
        exponent = 0
    }

    /// The shortest digits that read back as `double` (Swift's description);
    /// nil for NaN, the infinities and magnitudes NSDecimal cannot hold.
    public init?(_ double: Double) {
        guard double.isFinite else { return nil }
        if double == double.rounded(), double.magnitude < 0x1p63 {
            self.init(Int(double))
            return
        }
        var text = Substring(String(double))
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let power = Int(text[text.index(after: e)...].drop { $0 == "+" }) else { return nil }
            exponent = power
            text = text[..<e]
        }
        let negative = text.first == "-"
        if negative { text = text.dropFirst() }
        var mantissa: UInt128 = 0
        var afterPoint = false
        for character in text {
            if character == "." {
                afterPoint = true
                continue
            }
            guard let digit = character.wholeNumberValue else { return nil }
            mantissa = mantissa * 10 + UInt128(digit)
            if afterPoint { exponent -= 1 }
        }
        self.init(isNegative: negative, mantissa: mantissa, exponent: exponent)
    }

    /// The value as a Double (`doubleValue`).
    public var doubleValue: Double { Double(description) ?? .nan }

    /// `decimalNumberByAdding:`: exact while the sum fits the mantissa;
    /// otherwise digits are rounded off (NSRoundPlain). Nil on overflow.
    public func adding(_ other: DecimalNumber) -> DecimalNumber? {
        var (a, b) = exponent >= other.exponent ? (self, other) : (other, self)
        var aMantissa = a.mantissa
        var aExponent = a.exponent
        // Bring the larger exponent down while the mantissa has room…
        while aExponent > b.exponent {
            let (scaled, overflow) = aMantissa.multipliedReportingOverflow(by: 10)
            if overflow { break }
            aMantissa = scaled
            aExponent -= 1
        }
        // …and round the other's extra digits off when it has not.
        var bMantissa = b.mantissa
        var bExponent = b.exponent
        while bExponent < aExponent {
            bMantissa = Self.roundOffOneDigit(bMantissa)
            bExponent += 1
        }
        a = DecimalNumber(raw: a.isNegative, aMantissa, aExponent)
        b = DecimalNumber(raw: b.isNegative, bMantissa, bExponent)
        if a.isNegative == b.isNegative {
            let (sum, overflow) = a.mantissa.addingReportingOverflow(b.mantissa)
            if !overflow { return DecimalNumber(isNegative: a.isNegative, mantissa: sum, exponent: aExponent) }
            let rounded = Self.roundOffOneDigit(a.mantissa) + Self.roundOffOneDigit(b.mantissa)
            return DecimalNumber(isNegative: a.isNegative, mantissa: rounded, exponent: aExponent + 1)
        }
        if a.mantissa >= b.mantissa {
            return DecimalNumber(isNegative: a.isNegative, mantissa: a.mantissa - b.mantissa, exponent: aExponent)
        }
        return DecimalNumber(isNegative: b.isNegative, mantissa: b.mantissa - a.mantissa, exponent: aExponent)
    }

    /// `decimalNumberByDividingBy:` a positive count: long division to 38
    /// significant digits, the rest cut off (NSDecimalDivide divides its
    /// widened mantissas as integers: 2/3 is 0.66666666666666666666666666666666666666).
    public func divided(by count: Int) -> DecimalNumber? {
        guard count > 0 else { return nil }
        let divisor = UInt128(count)
        var quotient = mantissa / divisor
        var remainder = mantissa % divisor
        var exponent = self.exponent
        while remainder != 0, Self.digitCount(quotient) < Self.maxDigits, exponent > Self.exponentRange.lowerBound {
            // remainder < divisor ≤ 2^63, so neither product overflows.
            remainder *= 10
            quotient = quotient * 10 + remainder / divisor
            remainder %= divisor
            exponent -= 1
        }
        while Self.digitCount(quotient) > Self.maxDigits {
            quotient /= 10
            exponent += 1
        }
        return DecimalNumber(isNegative: isNegative, mantissa: quotient, exponent: exponent)
    }

    /// NSDecimalString: every digit, a point where the exponent puts it,
    /// never an exponent.
    public var description: String {
        let digits = String(mantissa)
        var text = isNegative ? "-" : ""
        if exponent >= 0 {
            text += digits
            if mantissa != 0 { text += String(repeating: "0", count: exponent) }
            return text
        }
        let point = digits.count + exponent
        if point <= 0 {
            text += "0." + String(repeating: "0", count: -point) + digits
        } else {
            let index = digits.index(digits.startIndex, offsetBy: point)
            text += digits[..<index] + "." + digits[index...]
        }
        return text
    }

    private init(raw negative: Bool, _ mantissa: UInt128, _ exponent: Int) {
        isNegative = negative
        self.mantissa = mantissa
        self.exponent = exponent
    }

    /// `mantissa / 10`, rounded half away from zero (NSRoundPlain).
    private static func roundOffOneDigit(_ mantissa: UInt128) -> UInt128 {
        mantissa / 10 + (mantissa % 10 >= 5 ? 1 : 0)
    }

    /// Significant digits: none in 0.
    private static func digitCount(_ value: UInt128) -> Int {
        var count = 0
        var rest = value
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }
}
