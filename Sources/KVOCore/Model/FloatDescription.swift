#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Value {
    /// An NSNumber made from a float describes itself with `%0.7g`
    /// (`floatValue` of "3.14" prints 3.14, of 0.07 prints 0.07).
    public static func describe(float value: Float) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        var buffer = [CChar](repeating: 0, count: 64)
        let written = buffer.withUnsafeMutableBufferPointer { pointer in
            withVaList([Double(value)]) { vsnprintf(pointer.baseAddress, pointer.count, "%0.7g", $0) }
        }
        guard written > 0 else { return String(Double(value)) }
        return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
