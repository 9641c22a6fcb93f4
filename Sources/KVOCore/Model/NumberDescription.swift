#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// How NSNumber describes a double: `%0.16g` (`-[NSNumber description]`
/// formats doubles with 16 significant digits), so 0.07 prints
/// `0.07000000000000001`, 0.1 + 0.2 prints `0.3` and 200.0 prints `200`.
///
/// B5s formats six components per set, so the usual case is computed here
/// without printf: the 16 significant digits are the integer nearest to
/// `|x| × 10^q`, which a product and its fused-multiply-add residual give
/// exactly while `10^q` is exact in a Double (q ≤ 22). Values outside that
/// range (below 1e-7 or from 1e16 up) go to the C library's `%0.16g`.
enum NumberDescription {
    /// Powers of ten exact in a Double: 10^0 through 10^22.
    private static let powers: [Double] = (0...22).map { exponent in
        var power = 1.0
        for _ in 0..<exponent { power *= 10 }
        return power
    }

    /// The Doubles nearest to 10^0 through 10^-8.
    private static let inversePowers: [Double] = [1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8]

    static func describe(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value == 0 { return value.sign == .minus ? "-0" : "0" }
        // Integral below 1e16: at most 16 digits, printed whole. Well inside
        // Int's range, so the conversion cannot trap.
        if abs(value) < 1e16, value == Double(Int(value)) { return String(Int(value)) }
        return fast(value) ?? printf(value)
    }

    /// `%0.16g` by the exact product, or nil outside 1e-7 ..< 1e16.
    private static func fast(_ value: Double) -> String? {
        let magnitude = abs(value)
        guard magnitude >= 1e-7, magnitude < 1e16 else { return nil }
        // q such that |x| × 10^q has 16 digits before the point: 15 minus the
        // decimal exponent, estimated from the binary one (no call into
        // libm) and corrected below when one off.
        // floor(e2 × log10 2) in integers (exact for |e2| < 1,700; the
        // arithmetic shift floors negatives): no call into libm.
        let binaryExponent = Int((magnitude.bitPattern >> 52) & 0x7FF) - 1023  // a normal number here
        var decimalExponent = (binaryExponent * 78_913) >> 18
        // The estimate is at most one low; the nearest Double to the next
        // power of ten tells (the loop below still checks the digits).
        let next = decimalExponent + 1
        if next >= -8, next <= 16, magnitude >= (next >= 0 ? powers[next] : inversePowers[-next]) {
            decimalExponent = next
        }
        var q = 15 - decimalExponent
        for _ in 0..<3 {
            guard q >= 0, q <= 22 else { return nil }
            let digits = nearest(magnitude, times: powers[q])
            if digits >= 10_000_000_000_000_000 {
                q -= 1
            } else if digits < 1_000_000_000_000_000 {
                q += 1
            } else {
                return write(digits, exponent: 15 - q, negative: value < 0)
            }
        }
        return nil
    }

    /// The integer nearest to the exact `magnitude × power`, ties to even
    /// (as printf rounds). `power` is exact, so `high + low` is the exact
    /// product; it is below 2^57 here, so `|low|` is at most 8 (at most 1
    /// in the range that is kept, below 2^54).
    private static func nearest(_ magnitude: Double, times power: Double) -> UInt64 {
        let high = magnitude * power
        let low = (-high).addingProduct(magnitude, power)  // fma: the exact residual
        // Truncation is the floor of a positive value; both steps are exact.
        var digits = UInt64(high)
        let fraction = high - Double(digits)  // in [0, 1)
        if fraction == 0 {
            // The residual alone decides; past 2^53 it may exceed one half.
            if low > 0.5 || (low == 0.5 && digits % 2 == 1) {
                digits += 1
            } else if digits > 0, low < -0.5 || (low == -0.5 && digits % 2 == 1) {
                digits -= 1
            }
        } else if fraction > 0.5 || (fraction == 0.5 && (low > 0 || (low == 0 && digits % 2 == 1))) {
            // With a fraction, one unit of `high` is below 1 and the residual
            // below half of it: it moves the sum across one half only at a tie.
            digits += 1
        }
        return digits
    }

    /// 16 significant digits `digits` (10^15 ≤ digits < 10^16) times
    /// 10^(exponent − 15), as `%g` writes them: fixed notation for exponents
    /// −4 through 15, else `d.ddde-XX`; trailing zeros dropped.
    private static func write(_ digits: UInt64, exponent: Int, negative: Bool) -> String {
        var significant = digits
        var decimals = 15 - exponent
        // Trailing zeros (at most 15) in steps of 8, 4, 2 and 1, while they
        // are decimals.
        func dropZeros(_ count: Int, _ power: UInt64) {
            if decimals >= count, significant % power == 0 {
                significant /= power
                decimals -= count
            }
        }
        dropZeros(8, 100_000_000)
        dropZeros(4, 10_000)
        dropZeros(2, 100)
        dropZeros(1, 10)
        if exponent >= -4 {
            if decimals > 0 { return ShortDecimal.write(significant, decimals: decimals, negative: negative) }
            // A fraction below the 16th digit: a whole number.
            return (negative ? "-" : "") + String(significant)
        }
        // Below 1e-4: `1.5e-05`. The significant digits without their
        // trailing zeros, the point after the first.
        while significant % 10 == 0 { significant /= 10 }
        let text = String(significant)
        var result = negative ? "-" : ""
        result += text.prefix(1)
        if text.count > 1 { result += "." + text.dropFirst() }
        return result + "e-" + (exponent > -10 ? "0" : "") + String(-exponent)
    }

    /// The C library's `%0.16g`, for what `fast` leaves out.
    static func printf(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 40)
        let written = withVaList([value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { pointer in
                vsnprintf(pointer.baseAddress, pointer.count, "%0.16g", arguments)
            }
        }
        guard written > 0 else { return String(value) }
        return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
