/// How values print: `print` uses `printDescription`, collections and change
/// dictionaries use `collectionDescription` (NSArray/NSDictionary style, docs/language.md#values).
extension Value {
    /// What `print(x)` and string interpolation show.
    public var printDescription: String {
        switch self {
        case .null: return "nil"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return Value.describe(double: value)
        case .string(let value): return value
        case .float, .decimal: return numberDescription ?? ""
        case .observationInfo(let object): return object.observationInfoDescription ?? "nil"
        case .exception(let exception): return "\(exception.name): \(exception.reason)"
        default: return collectionDescription
        }
    }

    /// Calls `body` with the UTF-8 bytes of `printDescription` for an Int, a
    /// Double or a String, and returns true; returns false without calling
    /// it for any other value. A number's digits are written into a stack
    /// buffer, not a String (`writeNumberPrintBytes`): string interpolation
    /// copies them, and a String's own bytes, straight into its result.
    public func withPrintBytes(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> Bool {
        switch self {
        case .int, .double:
            var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            try withUnsafeMutableBytes(of: &storage) { buffer in
                if let start = writeNumberPrintBytes(into: buffer) {
                    try body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
                } else {
                    var text = printDescription
                    try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
                }
            }
        case .string(let value):
            if try value.utf8.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) == nil {
                var copy = value
                try copy.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
            }
        default:
            return false
        }
        return true
    }

    /// For an Int or a Double: writes `printDescription`'s bytes so that they
    /// end at the end of `buffer` (32 bytes at least) and returns where they
    /// start. Nil for other values and for the Doubles only the C library
    /// formats (below 1e-7, from 1e16 up). String interpolation writes its
    /// numbers this way, with no closure between it and the digits.
    public func writeNumberPrintBytes(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        switch self {
        case .int(let value):
            return NumberDescription.writeInteger(
                UInt64(value.magnitude), negative: value < 0, endingAt: buffer.count, in: buffer)
        case .double(let value):
            return NumberDescription.write(value, endingAt: buffer.count, in: buffer)
        default:
            return nil
        }
    }

    /// A value named in a diagnostic: numbers bare (`2.5`, `-1`), anything
    /// else as inside a collection (a string quoted unless it is a word).
    public var diagnosticDescription: String {
        switch self {
        case .int, .double: return printDescription
        default: return collectionDescription
        }
    }

    /// The description inside a collection or a change dictionary.
    public var collectionDescription: String {
        switch self {
        case .array, .set:
            var output = ""
            Value.describeCollection(self, into: &output, charge: { _ in })
            return output
        default:
            return scalarDescription
        }
    }

    /// Appends `collectionDescription` to `output`.
    public func describe(into output: inout String) {
        switch self {
        case .array, .set: Value.describeCollection(self, into: &output, charge: { _ in })
        default: output += scalarDescription
        }
    }

    /// Appends the start of `collectionDescription`: about `limit` bytes of
    /// it at most, cut at an element, with no `…` and nothing closed. A set's
    /// sort keys are these.
    func describe(into output: inout String, limit: Int) {
        switch self {
        case .array, .set:
            Value.describeCollection(self, into: &output, limit: limit, closeOnCut: false, cut: "", charge: { _ in })
        default:
            output += scalarDescription
        }
    }

    /// `printDescription`, charging `meter` for each element written, so
    /// printing or interpolating a huge value stops at the step limit or on
    /// Ctrl-C.
    public func printDescription(meter: WorkMeter) throws -> String {
        switch self {
        case .array, .set:
            var output = ""
            try Value.describeCollection(self, into: &output, charge: { try meter.charge($0) })
            return output
        default:
            return printDescription
        }
    }

    /// Descriptions stop growing past this many bytes: an array that holds
    /// itself twice per level (`a = [a, a]`, repeated) describes in exponential
    /// size, which would otherwise hang and exhaust memory. What is left out
    /// shows as `…`. Just under the 64 MiB cap on strings, so that a cut
    /// description can still be interpolated.
    public static let descriptionLimit = (1 << 26) - (1 << 12)

    /// Arrays and sets nest without bound: describe them with an explicit
    /// stack into one buffer, so depth costs neither native stack nor copies.
    static func describeCollection(
        _ value: Value, into output: inout String, limit: Int = descriptionLimit,
        closeOnCut: Bool = true, cut: String = "…",
        charge: (Int) throws -> Void
    ) rethrows {
        let start = output.utf8.count
        try writeNested(
            value, into: &output, separator: ", ", cut: cut, limit: limit, closeOnCut: closeOnCut,
            charge: charge,
            open: { value, output in
                switch value {
                case .array(let elements):
                    output += "("
                    return (.packed(elements), ")")
                case .set(let set):
                    output += "{("
                    // Sort keys longer than what is left to write would only be cut.
                    return (.values(set.sorted(keyBudget: max(0, limit - (output.utf8.count - start)))), ")}")
                default:
                    return nil
                }
            }, scalar: \.scalarDescription)
    }

    /// Writes `value` depth-first with an explicit stack, for any format:
    /// `open` writes a collection's opening and returns its elements and
    /// closing (nil for anything else, which `scalar` writes). Past `limit`
    /// bytes (`descriptionLimit` unless given) the rest is replaced by `cut`
    /// and every open collection is closed (unless `closeOnCut` is false).
    /// `charge` is told of every element written.
    public static func writeNested(
        _ value: Value, into output: inout String, separator: String, cut: String,
        open: (Value, inout String) -> (elements: CollectionElements, close: String)?,
        scalar: (Value) -> String
    ) {
        writeNested(
            value, into: &output, separator: separator, cut: cut, limit: descriptionLimit, closeOnCut: true,
            charge: { _ in }, open: open, scalar: scalar)
    }

    public static func writeNested(
        _ value: Value, into output: inout String, separator: String, cut: String,
        limit: Int, closeOnCut: Bool, charge: (Int) throws -> Void,
        open: (Value, inout String) -> (elements: CollectionElements, close: String)?,
        scalar: (Value) -> String
    ) rethrows {
        var stack: [(elements: CollectionElements, next: Int, close: String)] = []
        let start = output.utf8.count
        func visit(_ value: Value) {
            if let collection = open(value, &output) {
                stack.append((collection.elements, 0, collection.close))
            } else {
                output += scalar(value)
            }
        }
        visit(value)
        while !stack.isEmpty {
            let top = stack.count - 1
            let index = stack[top].next
            if index == stack[top].elements.count {
                output += stack[top].close
                stack.removeLast()
                continue
            }
            if index > 0 { output += separator }
            if output.utf8.count - start > limit {
                output += cut
                if closeOnCut {
                    while let frame = stack.popLast() { output += frame.close }
                }
                return
            }
            try charge(1)
            stack[top].next = index + 1
            visit(stack[top].elements[index])
        }
    }

    /// The description of anything but an array or a set.
    var scalarDescription: String {
        switch self {
        case .null: return "<null>"
        case .bool(let value): return value ? "1" : "0"
        // Numbers are quoted by the strings' rule: `"-1"`, `"2.5"`, `200`.
        case .int(let value): return value < 0 ? "\"\(value)\"" : String(value)
        case .double(let value): return Value.quoteIfNeeded(Value.describe(double: value))
        case .float, .decimal: return Value.quoteIfNeeded(numberDescription ?? "")
        case .string(let value): return Value.quoteIfNeeded(value)
        case .object(let object): return object.description
        case .array, .set: return collectionDescription
        case .context(let context): return context.name
        case .option(let options): return "." + options.names.joined(separator: ", .")
        case .setMutation(let mutation): return ".\(mutation)"
        case .arrayProxy(let object, let keyPath): return "<NSKeyValueMutableArray \(object.name).\(keyPath)>"
        case .setProxy(let object, let keyPath): return "<NSKeyValueMutableSet \(object.name).\(keyPath)>"
        case .observationInfo(let object):
            return object.observationInfo == nil ? "<null>" : "<NSKeyValueObservationInfo \(object.name)>"
        case .change(let change): return change.description
        case .exception(let exception): return "\(exception.name): \(exception.reason)"
        }
    }

    /// An NSNumber's own description (`stringValue`), bare; nil for
    /// anything that is not a number.
    public var numberDescription: String? {
        switch self {
        case .bool(let value): return value ? "1" : "0"
        case .int(let value): return String(value)
        case .double(let value): return Value.describe(double: value)
        case .float(let value): return Value.describe(float: value)
        case .decimal(let value): return value.description
        default: return nil
        }
    }

    /// NSNumber's description of a double, `%0.16g`: `200`, `3.5`,
    /// 0.07 → `0.07000000000000001`, 0.1 + 0.2 → `0.3` (SPEC §3).
    public static func describe(double value: Double) -> String {
        NumberDescription.describe(value)
    }

    /// The shortest text that reads back as the same Double, integral values
    /// without `.0`: what JSON carries, since JSON keeps the number itself.
    public static func shortestDescription(double value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        // Below 1e16 in magnitude, well inside Int's range: the conversion cannot trap.
        if value == value.rounded(), abs(value) < 1e16 {
            return String(Int(value))
        }
        return ShortDecimal.describe(value) ?? String(value)
    }

    /// A description inside a collection, a change dictionary or a dump, as
    /// NSArray and NSDictionary write the descriptions they get (strings and
    /// numbers alike): bare when non-empty and made of ASCII letters and
    /// digits alone, else quoted as old-style property lists quote: `\"`,
    /// `\\`, the C escapes `\a \b \t \n \v \f \r`, other ASCII control
    /// characters as three octal digits (`\033`), and everything past ASCII
    /// as `\U` and four lowercase hex digits per UTF-16 unit (`\U00e9`,
    /// `\Ud83d\Ude42`). No character that moves the cursor or reorders a
    /// line (bidi controls are past ASCII) is ever written raw.
    public static func quoteIfNeeded(_ string: String) -> String {
        var bare = !string.isEmpty
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            default: bare = false
            }
            if !bare { break }
        }
        if bare { return string }
        var quoted = "\""
        for unit in string.utf16 {
            switch unit {
            case 0x22: quoted += "\\\""
            case 0x5C: quoted += "\\\\"
            case 0x07: quoted += "\\a"
            case 0x08: quoted += "\\b"
            case 0x09: quoted += "\\t"
            case 0x0A: quoted += "\\n"
            case 0x0B: quoted += "\\v"
            case 0x0C: quoted += "\\f"
            case 0x0D: quoted += "\\r"
            case 0x20...0x7E: quoted.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            case 0...0x7F:
                quoted += "\\"
                for shift in [6, 3, 0] {
                    quoted.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8((unit >> UInt16(shift)) & 7)))
                }
            default:
                quoted += "\\U"
                for shift in [12, 8, 4, 0] {
                    let digit = Int((unit >> UInt16(shift)) & 0xF)
                    quoted.unicodeScalars.append(hexDigits[digit])
                }
            }
        }
        return quoted + "\""
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789abcdef".unicodeScalars)

    /// The class name Foundation would report for this value (`__NSCFNumber`…),
    /// used in exception reasons.
    public var foundationClassName: String {
        switch self {
        case .null: return "NSNull"
        case .bool: return "__NSCFBoolean"
        case .int, .double, .float: return "__NSCFNumber"
        case .decimal: return "NSDecimalNumber"
        case .string: return "__NSCFString"
        case .object(let object): return object.cls.name
        case .array: return "__NSArrayM"
        case .set: return "__NSSetM"
        case .context: return "NSKeyValueContext"
        case .option, .setMutation: return "__NSCFNumber"
        case .arrayProxy: return "NSKeyValueSlowMutableArray"
        case .setProxy: return "NSKeyValueSlowMutableSet"
        case .observationInfo: return "NSKeyValueObservationInfo"
        case .change: return "__NSDictionaryM"
        case .exception: return "NSException"
        }
    }
}
