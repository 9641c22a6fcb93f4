import KVOCore

/// Evaluates a string interpolation (`"rgb(\(r), \(g), \(b))"`): the pieces'
/// bytes are copied into one buffer, and the String is made once at the end.
/// Appending each piece to a String cost more than the pieces themselves
/// (B5s builds a color per set), and numbers, strings and Ints give their
/// bytes without a String of their own (`Value.withPrintBytes`).
struct InterpolatedText {
    /// One piece, in order. Plain numbers, so that walking the pieces copies
    /// no reference: an enum holding the literal's array or the closure was
    /// retained and released once per piece.
    enum Piece {
        /// Literal text: a range of `literals`.
        case text(Range<Int>)
        /// An interpolated value: an index into `evals`.
        case value(Int)
    }

    /// An interpolated value's closure, boxed in a struct, as `ExecBox`
    /// explains: a bare closure in an array is called through a
    /// reabstraction thunk.
    struct ValuePiece {
        let eval: Eval
    }

    /// Every literal piece's UTF-8 bytes, one after the other.
    private var literals: [UInt8] = []
    private var evals: [ValuePiece] = []
    private var pieces: [Piece] = []

    init(_ parts: [InterpolationPart], compile: (Expr) -> (Machine) throws -> Value) {
        for part in parts {
            switch part {
            case .text(let text):
                let start = literals.count
                literals += text.utf8
                pieces.append(.text(start..<literals.count))
            case .expr(let inner):
                pieces.append(.value(evals.count))
                evals.append(ValuePiece(eval: compile(inner)))
            }
        }
    }

    /// Results up to this many bytes are built on the stack.
    private static let stackBytes = 256

    func build(_ machine: Machine) throws -> String {
        try withUnsafeTemporaryAllocation(byteCount: Self.stackBytes, alignment: 1) { stack in
            try literals.withUnsafeBytes { literals in
                try evals.withUnsafeBufferPointer { evals in
                    var text = Bytes(stack: stack)
                    // Where a number's digits are written before they are copied.
                    var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
                    for piece in pieces {
                        switch piece {
                        case .text(let range):
                            try text.append(UnsafeRawBufferPointer(rebasing: literals[range]), machine)
                        case .value(let index):
                            let value = try evals[index].eval(machine)
                            let start = withUnsafeMutableBytes(of: &digits) { value.writeNumberPrintBytes(into: $0) }
                            if let start {
                                try withUnsafeBytes(of: &digits) {
                                    try text.append(UnsafeRawBufferPointer(rebasing: $0[start...]), machine)
                                }
                                continue
                            }
                            let written = try value.withPrintBytes { try text.append($0, machine) }
                            if !written {
                                var description = try value.printDescription(meter: machine.kvo.work)
                                try description.withUTF8 { try text.append(UnsafeRawBufferPointer($0), machine) }
                            }
                        }
                    }
                    return text.string
                }
            }
        }
    }

    /// The bytes so far: in the stack buffer, or once they outgrow it, all
    /// of them in `heap`.
    private struct Bytes {
        let stack: UnsafeMutableRawBufferPointer
        var count = 0
        var heap: [UInt8] = []
        var spilled = false

        init(stack: UnsafeMutableRawBufferPointer) { self.stack = stack }

        /// Appends `bytes` after checking the size limit and charging the
        /// step meter, as every string operation does. A piece under 64
        /// bytes that fits in the stack buffer is under the size limit and
        /// charges nothing: it is copied in place, the rest is not inlined.
        @inline(__always)
        mutating func append(_ bytes: UnsafeRawBufferPointer, _ machine: Machine) throws {
            if bytes.count < 64, !spilled, count + bytes.count <= stack.count {
                UnsafeMutableRawBufferPointer(rebasing: stack[count..<(count + bytes.count)]).copyMemory(from: bytes)
                count += bytes.count
                return
            }
            try appendChecked(bytes, machine)
        }

        private mutating func appendChecked(_ bytes: UnsafeRawBufferPointer, _ machine: Machine) throws {
            try Operators.checkSize(string: count + bytes.count)
            // Charging nothing (a piece under 64 bytes) is no step.
            if bytes.count >= 64 { try machine.kvo.work.charge(bytes.count >> 6) }
            if !spilled, count + bytes.count <= stack.count {
                UnsafeMutableRawBufferPointer(rebasing: stack[count..<(count + bytes.count)]).copyMemory(from: bytes)
            } else {
                if !spilled {
                    heap.reserveCapacity(max(2 * stack.count, count + bytes.count))
                    let sofar = UnsafeRawBufferPointer(rebasing: stack[..<count])
                    heap.append(contentsOf: sofar.assumingMemoryBound(to: UInt8.self))
                    spilled = true
                }
                heap.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
            }
            count += bytes.count
        }

        var string: String {
            spilled
                ? String(decoding: heap, as: UTF8.self)
                : String(decoding: UnsafeRawBufferPointer(rebasing: stack[..<count]), as: UTF8.self)
        }
    }
}
