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
    /// Powers of ten exact in a Double: 10^0 through 10^22. Written out, so
    /// that the array is built at compile time (no lazy initialisation to
    /// check on every use).
    private static let powers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// The Doubles nearest to 10^0 through 10^-8.
    private static let inversePowers: [Double] = [1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8]

    static func describe(_ value: Double) -> String {
        withDescription(value) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of `describe(value)`, written into
    /// a stack buffer: string interpolation copies them straight into its
    /// result, without a String for each number.
    static func withDescription<Result>(
        _ value: Double, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        // 32 bytes: the longest text written here is 22 (`-0.0001234567890123456`).
        var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return try withUnsafeMutableBytes(of: &storage) { buffer in
            if let start = write(value, endingAt: buffer.count, in: buffer) {
                return try body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
            }
            var text = printf(value)
            return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Writes `%0.16g` of `value` so that it ends at `end` (at least 32
    /// bytes from the buffer's start) and returns where it starts, or nil
    /// for what only printf writes (below 1e-7 or from 1e16 up).
    static func write(_ value: Double, endingAt end: Int, in buffer: UnsafeMutableRawBufferPointer) -> Int? {
        if value.isNaN { return prepend("nan", endingAt: end, in: buffer) }
        if value.isInfinite { return prepend(value < 0 ? "-inf" : "inf", endingAt: end, in: buffer) }
        if value == 0 { return prepend(value.sign == .minus ? "-0" : "0", endingAt: end, in: buffer) }
        // Integral below 1e16: at most 16 digits, printed whole. Well inside
        // Int's range, so the conversion cannot trap.
        if abs(value) < 1e16, value == Double(Int(value)) {
            return writeInteger(UInt64(Int(value).magnitude), negative: value < 0, endingAt: end, in: buffer)
        }
        guard let (digits, exponent) = fast(value) else { return nil }
        return write(digits, exponent: exponent, negative: value < 0, endingAt: end, in: buffer)
    }

    /// `text` (ASCII) written so that it ends at `end`; returns its start.
    private static func prepend(
        _ text: StaticString, endingAt end: Int, in buffer: UnsafeMutableRawBufferPointer
    ) -> Int {
        let start = end - text.utf8CodeUnitCount
        UnsafeMutableRawBufferPointer(rebasing: buffer[start..<end])
            .copyMemory(from: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        return start
    }

    /// The decimal digits of `magnitude`, `-` first when `negative`, ending
    /// at `end`; returns their start. At most 21 bytes.
    static func writeInteger(
        _ magnitude: UInt64, negative: Bool, endingAt end: Int, in buffer: UnsafeMutableRawBufferPointer
    ) -> Int {
        var start = end
        var rest = magnitude
        while rest >= 100 {
            start -= 2
            writePair(Int(truncatingIfNeeded: rest % 100), at: start, in: buffer)
            rest /= 100
        }
        if rest >= 10 {
            start -= 2
            writePair(Int(truncatingIfNeeded: rest), at: start, in: buffer)
        } else {
            start -= 1
            buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        if negative {
            start -= 1
            buffer[start] = UInt8(ascii: "-")
        }
        return start
    }

    /// `00` through `99`: digits are written two at a time, half the
    /// divisions.
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// The two digits of `pair` (0 ..< 100) at `start` and `start + 1`.
    @inline(__always)
    static func writePair(_ pair: Int, at start: Int, in buffer: UnsafeMutableRawBufferPointer) {
        let digits = digitPairs.utf8Start
        buffer[start] = digits[2 &* pair]
        buffer[start &+ 1] = digits[2 &* pair &+ 1]
    }

    /// The 16 significant digits of `|value|` and its decimal exponent
    /// (`value` ≈ digits × 10^(exponent − 15)) by the exact product, or nil
    /// outside 1e-7 ..< 1e16.
    private static func fast(_ value: Double) -> (digits: UInt64, exponent: Int)? {
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
                return (digits, 15 - q)
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
    /// −4 through 15, else `d.ddde-XX` (exponents down to −7 here); trailing
    /// zeros dropped. Written so that it ends at `end`; returns its start.
    private static func write(
        _ digits: UInt64, exponent: Int, negative: Bool, endingAt end: Int, in buffer: UnsafeMutableRawBufferPointer
    ) -> Int {
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
            if decimals > 0 {
                return ShortDecimal.write(
                    significant, decimals: decimals, negative: negative, endingAt: end, in: buffer)
            }
            // A fraction below the 16th digit: a whole number.
            return writeInteger(significant, negative: negative, endingAt: end, in: buffer)
        }
        // Below 1e-4: `1.5e-05`. The exponent (two digits at least), then
        // the significant digits without their trailing zeros, the point
        // after the first.
        var start = writeInteger(UInt64(-exponent), negative: false, endingAt: end, in: buffer)
        if exponent > -10 {
            start -= 1
            buffer[start] = UInt8(ascii: "0")
        }
        start = prepend("e-", endingAt: start, in: buffer)
        while significant % 10 == 0 { significant /= 10 }
        var fractionDigits = 0
        var rest = significant
        while rest >= 10 {
            rest /= 10
            fractionDigits += 1
        }
        if fractionDigits > 0 {
            return ShortDecimal.write(
                significant, decimals: fractionDigits, negative: negative, endingAt: start, in: buffer)
        }
        return writeInteger(significant, negative: negative, endingAt: start, in: buffer)
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
