/// 64-bit FNV-1a: a cache key, not a security measure.
struct FNV1a {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(bytes: $0) }
    }
    /// Text's bytes, then a 0xff (which no UTF-8 holds) to end it: the same
    /// hash as `add(_:)` of the String they spell.
    mutating func add(bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes {
            state ^= UInt64(byte)
            state = state &* 0x100_0000_01b3
        }
        state ^= 0xff
        state = state &* 0x100_0000_01b3
    }
    /// A number's eight bytes.
    mutating func add(_ value: UInt64) {
        var value = value
        for _ in 0..<8 {
            state ^= value & 0xff
            state = state &* 0x100_0000_01b3
            value >>= 8
        }
    }

    /// The hash so far.
    var value: UInt64 { state }

    var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
