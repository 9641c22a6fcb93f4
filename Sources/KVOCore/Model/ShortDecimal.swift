/// The shortest round-trip text of a Double with a few decimals (`0.1875`,
/// `12.5`), written without the general algorithm behind `Double.description`
/// (B5s formats three such components per colour, twice per set).
///
/// `m / 10^k`, with `k` the fewest decimals for which the quotient rounds back
/// to the same Double, is exactly what the shortest round-trip form prints in
/// fixed notation: below 2^50 the scaled value is off by at most 1/8 from
/// `magnitude × 10^k`, so rounding finds `m` whenever one exists, and the
/// round-trip interval (one ulp, at most 1/4 once scaled) holds no other
/// integer. Outside `1e-3 ..< 1e7`, or past 8 decimals, it gives up (nil).
enum ShortDecimal {
    /// Powers of ten, all exact in a Double.
    private static let powers: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8]

    static func describe(_ value: Double) -> String? {
        let magnitude = abs(value)
        guard magnitude >= 1e-3, magnitude < 1e7 else { return nil }
        for decimals in 1..<powers.count {
            let power = powers[decimals]
            let product = magnitude * power
            guard product < 0x1p50 else { return nil }
            // Rounded to nearest by truncation (no call into libm): when some
            // `m` fits, `product` is within 1/8 of it.
            let scaled = UInt64(product + 0.5)
            if Double(scaled) / power == magnitude {
                return write(scaled, decimals: decimals, negative: value < 0)
            }
        }
        return nil
    }

    /// `-12.0625` from 120625 and 4 decimals, written from the right into a
    /// stack buffer; at most 1 + 16 + 1 bytes. Up to 15 bytes the String is
    /// a small one, with no allocation.
    static func write(_ scaled: UInt64, decimals: Int, negative: Bool) -> String {
        var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &storage) { buffer in
            let start = write(scaled, decimals: decimals, negative: negative, endingAt: buffer.count, in: buffer)
            return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// The same text written so that it ends at `end`; returns where it
    /// starts. NumberDescription writes its fixed notation with it, into the
    /// buffer a string interpolation copies from (no String in between).
    /// `decimals` is at least 1; `end` must leave room for the decimals, the
    /// point, the integer part (a `0` at least, 20 digits at most) and the
    /// sign: `decimals` + 22 bytes suffice.
    static func write(
        _ scaled: UInt64, decimals: Int, negative: Bool, endingAt end: Int, in buffer: UnsafeMutableRawBufferPointer
    ) -> Int {
        var start = end
        var rest = scaled
        // The decimals (zeros included) two at a time, the point, then the
        // integer part: at least a `0`.
        var left = decimals
        while left >= 2 {
            start -= 2
            NumberDescription.writePair(Int(truncatingIfNeeded: rest % 100), at: start, in: buffer)
            rest /= 100
            left -= 2
        }
        if left == 1 {
            start -= 1
            buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        start -= 1
        buffer[start] = UInt8(ascii: ".")
        return NumberDescription.writeInteger(rest, negative: negative, endingAt: start, in: buffer)
    }
}
