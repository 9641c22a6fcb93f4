extension Value {
    /// What Foundation's own values answer to `valueForKey:` (SPEC §5): an
    /// NSString its `length`, number getters and case mappings; an NSNumber
    /// its number getters and `stringValue`; both `self`. Nil for any other key.
    static func foundationGetter(_ value: Value, _ key: String) -> Value? {
        if key == "self" { return value }
        if case .string(let string) = value {
            switch key {
            case "length": return .int(string.utf16.count)
            case "intValue": return .int(Int(Int32(clamping: nsStringIntegerValue(string))))
            case "integerValue": return .int(nsStringIntegerValue(string))
            case "doubleValue": return .double(nsStringDoubleValue(string))
            case "floatValue": return .float(Float(nsStringDoubleValue(string)))
            case "boolValue": return .bool(nsStringBoolValue(string))
            case "lowercaseString": return .string(string.lowercased())
            case "uppercaseString": return .string(string.uppercased())
            case "capitalizedString": return .string(capitalizedWords(string))
            default: return nil
            }
        }
        guard let number = value.number else { return nil }
        switch key {
        case "intValue":
            // A C conversion: an integer keeps its low 32 bits; a
            // fraction is cut toward zero, saturating (as arm64 converts).
            if case .int(let int) = value { return .int(Int(Int32(truncatingIfNeeded: int))) }
            return .int(
                number.isNaN
                    ? 0 : Int(Int32(clamping: Value.int(exactlyTruncating: number) ?? (number < 0 ? Int.min : Int.max)))
            )
        case "integerValue":
            if case .int = value { return value }
            return .int(number.isNaN ? 0 : Value.int(exactlyTruncating: number) ?? (number < 0 ? Int.min : Int.max))
        case "doubleValue": return .double(number)
        case "floatValue":
            if case .float = value { return value }
            return .float(Float(number))
        case "boolValue": return .bool(number != 0)
        case "stringValue": return .string(value.numberDescription ?? "")
        default: return nil
        }
    }

    /// NSString's `capitalizedString`: each word's first character
    /// uppercased and the rest lowercased; words end at spaces, tabs and
    /// line ends.
    static func capitalizedWords(_ string: String) -> String {
        var result = ""
        var startOfWord = true
        for character in string {
            if character.isWhitespace || character.isNewline {
                result.append(character)
                startOfWord = true
            } else {
                result += startOfWord ? character.uppercased() : character.lowercased()
                startOfWord = false
            }
        }
        return result
    }

    /// The number KVC unboxes from a value (`-doubleValue`), if it has one.
    var kvcNumber: Double? {
        if let number { return number }
        if case .string(let string) = self { return Value.nsStringDoubleValue(string) }
        return nil
    }

    /// NSString's `longLongValue`: the decimal integer the string starts with,
    /// or 0; saturating as the C scanner does.
    static func nsStringIntegerValue(_ string: String) -> Int {
        var scalars = Substring(string).unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var negative = false
        if let sign = scalars.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        var result = 0
        for scalar in scalars {
            guard let digit = Int(String(scalar)), ("0"..."9").contains(scalar) else { break }
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return negative ? Int.min : Int.max }
            result = next
        }
        return negative ? -result : result
    }

    /// NSString's `doubleValue`: the decimal number the string starts with, or 0.
    /// One scan finds the longest prefix of the form
    /// `[+-]digits[.digits][(e|E)[+-]digits]` (with a digit before or after the
    /// point), which `Double` then parses once: trying every prefix was
    /// quadratic in a long digit string.
    static func nsStringDoubleValue(_ string: String) -> Double {
        let bytes = Array(
            string.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") })
        func isDigit(_ index: Int) -> Bool {
            index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
        }
        func isSign(_ index: Int) -> Bool {
            index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
        }
        var index = 0
        if isSign(index) { index += 1 }
        var digits = 0
        while isDigit(index) {
            index += 1
            digits += 1
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            var after = index + 1
            var fraction = 0
            while isDigit(after) {
                after += 1
                fraction += 1
            }
            if digits + fraction > 0 {
                index = after
                digits += fraction
            }
        }
        guard digits > 0 else { return 0 }
        var end = index
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            var exponent = index + 1
            if isSign(exponent) { exponent += 1 }
            if isDigit(exponent) {
                while isDigit(exponent) { exponent += 1 }
                end = exponent
            }
        }
        return Double(String(decoding: bytes[0..<end], as: UTF8.self)) ?? 0
    }

    /// NSString's `boolValue`: Y, y, T, t or a digit 1–9 after optional spaces,
    /// sign and zeros.
    static func nsStringBoolValue(_ string: String) -> Bool {
        var scalars = string.unicodeScalars.drop { $0 == " " || $0 == "\t" }
        if let first = scalars.first, first == "+" || first == "-" { scalars = scalars.dropFirst() }
        scalars = scalars.drop { $0 == "0" }
        guard let first = scalars.first else { return false }
        return "YyTt123456789".unicodeScalars.contains(first)
    }

    /// `@sum`: an NSDecimalNumber, as NSArray's `_sumForKeyPath:` adds each
    /// value's `decimalValue`; nil counts 0. A value no decimal holds (NaN,
    /// an infinity, past 10^127) makes it a Double sum instead.
    static func sum(_ values: [Value]) -> Value {
        var total = DecimalNumber(0)
        for value in values {
            guard let decimal = value.kvcDecimal, let next = total.adding(decimal) else {
                return .double(values.reduce(0.0) { $0 + ($1.kvcNumber ?? 0) })
            }
            total = next
        }
        return .decimal(total)
    }

    /// `@avg`: the sum divided by the count, as NSDecimalNumber divides
    /// (38 significant digits); nil for no values.
    static func average(_ values: [Value]) -> Value {
        guard !values.isEmpty else { return .null }
        let total = sum(values)
        if case .decimal(let decimal) = total, let average = decimal.divided(by: values.count) {
            return .decimal(average)
        }
        return .double((total.number ?? 0) / Double(values.count))
    }

    /// `-decimalValue` of what a key path gave: a number's own digits (a
    /// float's as it prints), a string's `doubleValue`; 0 for nil.
    var kvcDecimal: DecimalNumber? {
        switch self {
        case .null: return DecimalNumber(0)
        case .int(let int): return DecimalNumber(int)
        case .bool(let flag): return DecimalNumber(flag ? 1 : 0)
        case .decimal(let decimal): return decimal
        case .float(let float): return Double(Value.describe(float: float)).flatMap(DecimalNumber.init)
        default: return DecimalNumber(kvcNumber ?? 0)
        }
    }

    /// `compare:` for numbers and strings; nil when the two do not compare.
    public static func compare(_ lhs: Value, _ rhs: Value) -> Bool? {
        if let a = lhs.number, let b = rhs.number { return a < b }
        if case .string(let a) = lhs, case .string(let b) = rhs { return a < b }
        return nil
    }

    /// The type name in runtime error messages.
    public var typeName: String {
        switch self {
        case .null: return "nil"
        case .bool: return "Bool"
        case .int: return "Int"
        case .double, .float: return "Double"
        case .decimal: return "NSDecimalNumber"
        case .string: return "String"
        case .object(let object): return object.cls.name
        case .array: return "Array"
        case .set: return "Set"
        case .context: return "context"
        case .option: return "option"
        case .setMutation: return "set mutation"
        case .arrayProxy: return "mutable array proxy"
        case .setProxy: return "mutable set proxy"
        case .observationInfo: return "observation info"
        case .change: return "change dictionary"
        case .exception: return "exception"
        }
    }
}
