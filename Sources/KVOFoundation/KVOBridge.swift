import KVOCore

/// Lets `V` be asked for `nil` when it is an Optional.
protocol _KVOOptional {
    static var _kvoNone: Self { get }
    var _kvoWrapped: Any? { get }
}

extension Optional: _KVOOptional {
    static var _kvoNone: Optional { nil }
    var _kvoWrapped: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}

/// Between Swift values and the engine's: what Objective-C's bridging does on
/// a Mac (numbers become NSNumber inside KVC, nil becomes NSNull in a change).
public enum _KVOBridge {
    /// A Swift value as the engine holds it.
    static func value(_ any: Any?) -> Value {
        guard let any else { return .null }
        // The common types first, by their exact type. A cast to a protocol
        // (`_KVOOptional` below) that a type does not conform to scans every
        // conformance record of the process the first time it is asked of
        // that type: about 200,000 instructions in a program's start-up
        // (`setValue(175, forKey:)`). The switch below gives these the same
        // values.
        let dynamicType = type(of: any)
        if dynamicType == Int.self, let number = any as? Int { return .int(number) }
        if dynamicType == Double.self, let number = any as? Double { return .double(number) }
        if dynamicType == Bool.self, let flag = any as? Bool { return .bool(flag) }
        if dynamicType == String.self, let text = any as? String { return .string(text) }
        // An Optional, an Array or a Set (SwiftCollectionBridging.swift): one protocol
        // cast, as the Optional's alone was.
        if let container = any as? _KVOSwiftContainer { return container._kvoEngineValue }
        // Before the Swift types: `as? Bool` would bridge any NSNumber.
        if type(of: any) is NSNumber.Type, let number = any as? NSNumber {
            let code = String(cString: number.objCType)
            // An NSNumber remembers its type: a float describes itself `%0.7g` (`0.1`).
            if code == "f" { return .float(number.floatValue) }
            if code == "d" { return .double(number.doubleValue) }
            if code == "c" || code == "B" { return .bool(number.boolValue) }
            return .int(number.intValue)
        }
        switch any {
        case let object as NSObject:
            if let bridged = object as? _KVOBridgedObject { return value(bridged.base) }
            return object._kvoObject.map(Value.object) ?? .null
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .int(number)
        case let number as Double: return .double(number)
        case let text as String: return .string(text)
        case is NSNull: return .null
        case let number as Float: return .float(number)
        // To KVC a CGFloat is the double it holds (SPEC §11.8).
        case let number as CGFloat: return .double(Double(number))
        case let number as Int64: return .int(Int(number))
        case let number as Int32: return .int(Int(number))
        case let number as UInt: return Int(exactly: number).map(Value.int) ?? .double(Double(number))
        case let text as Substring: return .string(String(text))
        case let array as [Any]: return .array(array.map { value($0) })  // an NSArray
        case let set as Set<AnyHashable>: return .set(ValueSet(set.map { value($0.base) }))  // an NSSet
        case let indexes as IndexSet: return .array(indexes.map { .int($0) })
        default:
            // An `@objc enum` (or an option set) is its raw value inside KVO, an NSNumber.
            if let raw = (any as? any RawRepresentable)?.rawValue as? any BinaryInteger, let number = Int(exactly: raw)
            {
                return .int(number)
            }
            return foreign(any)
        }
    }

    /// `value(_:)` for one Swift type, chosen once (per property, per
    /// observation) rather than on every call: for Int, Double, Bool and
    /// String, whose engine value is known from the type, it skips the dynamic
    /// casts `value(_:)` tries in turn (about 3,500 instructions a call).
    static func converter<V>(_ type: V.Type) -> (V) -> Value {
        if V.self == Int.self { return { .int(_sameTypeCast($0, to: Int.self)) } }
        if V.self == Double.self { return { .double(_sameTypeCast($0, to: Double.self)) } }
        if V.self == Bool.self { return { .bool(_sameTypeCast($0, to: Bool.self)) } }
        if V.self == String.self { return { .string(_sameTypeCast($0, to: String.self)) } }
        return { value($0) }
    }

    /// A value the engine has no case for (a Date, an NSDate, a URL, a
    /// struct Objective-C would box) is held as its description, which is
    /// what KVO's own printing shows; the value itself is kept here so that a
    /// typed read (`change.newValue` of a `Date` property, KVC storing into
    /// it) gets it back. The last 4,096 to 8,191 of them are kept: enough for
    /// the values of the changes in flight. The program's one process keeps
    /// them (`_KVOProcess.foreignValues`).
    static func foreign(_ any: Any) -> Value {
        let text = _KVOPrinter.describe(any)
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        if process.foreignValues.count >= 4096 {
            process.olderForeignValues = process.foreignValues
            process.foreignValues = [:]
        }
        process.foreignValues[text] = any
        return .string(text)
    }

    static func foreignValue(_ text: String) -> Any? {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        // Every string KVC hands over asks (`swiftValue`): a program that
        // holds no foreign value pays no hashing of the string.
        if process.foreignValues.isEmpty && process.olderForeignValues.isEmpty { return nil }
        return process.foreignValues[text] ?? process.olderForeignValues[text]
    }

    /// An engine value as Objective-C hands it to Swift (`Any?`, SPEC
    /// §11.8): numbers as NSNumber (remembering a float), strings as NSString
    /// (bare inside `Optional(…)`; `as? String` casts back), collections as
    /// Foundation's, objects as themselves, nil as nil.
    static func swiftValue(_ value: Value) -> Any? {
        switch value {
        case .null: return nil
        case .bool(let flag): return NSNumber(value: flag)
        case .int(let number): return NSNumber(value: number)
        case .double(let number): return NSNumber(value: number)
        case .float(let number): return NSNumber(value: number)
        case .string(let text):
            if let original = foreignValue(text) { return objectiveC(original) }
            return NSString(string: text)
        case .object(let object): return _KVOProcess.shared.host(of: object)
        // An NSArray, as Objective-C hands one to Swift (SPEC §11.8): it prints
        // as Foundation prints it and casts back (`as? [String]`).
        case .array(let elements): return NSArray(array: elements.map { swiftValue($0) ?? NSNull() })
        case .decimal(let number): return NSDecimalNumber(string: number.description)
        case .set(let set): return NSSet(array: set.elements.map { swiftValue($0) ?? NSNull() })
        case .arrayProxy, .setProxy:
            let process = _KVOProcess.shared
            return swiftValue(process.run { try process.kvo.proxyContents(value) })
        default: return value.printDescription
        }
    }

    /// What Objective-C holds for a Swift value (a String as an NSString, a
    /// Bool as an `__NSCFBoolean`, a dictionary as an NSDictionary), as it
    /// hands it back to Swift: the value through the engine and out again.
    static func objectiveC(value any: Any?) -> Any? { swiftValue(value(any)) }

    /// A Swift value the engine held as its description (`foreign`), as
    /// Objective-C hands it back: a dictionary as an NSDictionary, a set as an
    /// NSSet (their elements bridged in turn, nil as NSNull), a Date as an
    /// NSDate, a struct Foundation boxes as an NSValue; anything else as is.
    static func objectiveC(_ any: Any) -> Any {
        switch any {
        case let date as Date: return NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case let point as CGPoint: return point._bridgeToObjectiveC()
        case let size as CGSize: return size._bridgeToObjectiveC()
        case let rect as CGRect: return rect._bridgeToObjectiveC()
        case let range as NSRange: return NSValue(range: range)
        default: break
        }
        func element(_ item: Any) -> Any { swiftValue(value(item)) ?? NSNull() }
        if let dictionary = any as? [AnyHashable: Any] {
            // Keys and values in one order: a dictionary iterates both alike.
            let keys = dictionary.keys.map {
                element($0.base) as? Foundation.NSObject ?? NSString(string: "\($0.base)")
            }
            return NSDictionary(objects: dictionary.values.map(element), forKeys: keys)
        }
        if let set = any as? Set<AnyHashable> { return NSSet(array: set.map { element($0.base) }) }
        return any
    }

    /// An engine value as a Swift `V`, converting numbers as KVC's unboxing
    /// does; nil when it cannot be one.
    static func cast<V>(_ value: Value, to type: V.Type) -> V? {
        if value.isNull {
            if let optional = V.self as? _KVOOptional.Type { return optional._kvoNone as? V }
            if let empty = emptyValue(V.self) { return empty }
        }
        switch value {
        case .int(let number):
            if let result = number as? V { return result }
            if let result = Double(number) as? V { return result }
            if let result = (number != 0) as? V { return result }
        case .double(let number):
            if let result = number as? V { return result }
            if let result = CGFloat(number) as? V { return result }
            if let int = Value.int(exactlyTruncating: number), let result = int as? V { return result }
        case .bool(let flag):
            if let result = flag as? V { return result }
            if let result = (flag ? 1 : 0) as? V { return result }
            if let result = (flag ? 1.0 : 0.0) as? V { return result }
        case .string(let text):
            if let result = text as? V { return result }
            if let result = foreignValue(text) as? V { return result }
        case .object(let object):
            if let result = _KVOProcess.shared.host(of: object) as? V { return result }
        case .set(let set):
            if let setType = V.self as? _KVOSwiftSet.Type, let result = setType._kvoSet(from: set) as? V {
                return result
            }
        case .array(let elements):
            if let arrayType = V.self as? _KVOSwiftArray.Type, let result = arrayType._kvoArray(from: elements) as? V {
                return result
            }
            let swift = elements.map { swiftValue($0) ?? NSNull() }
            if let result = swift as? V { return result }
            // An `NSMutableArray` property: a new one, as Apple's proxy sets.
            if let result = NSMutableArray(array: swift) as? V { return result }
        default:
            break
        }
        return swiftValue(value) as? V
    }

    /// What nil bridges to in a non-optional `String`, array, set or
    /// dictionary (SPEC §11.8): the empty one, as Swift's bridging of a nil
    /// NSString or NSArray gives; nil for any other type (a scalar's nil goes
    /// to `setNilValueForKey`).
    static func emptyValue<V>(_ type: V.Type) -> V? {
        if V.self == String.self { return "" as? V }
        let name = String(describing: type)
        if name.hasPrefix("Array<") { return [Any]() as? V }
        if name.hasPrefix("Set<") { return Set<AnyHashable>() as? V }
        if name.hasPrefix("Dictionary<") { return [AnyHashable: Any]() as? V }
        return nil
    }

    /// The engine's type for a Swift property's type: scalars are what KVC
    /// boxes (nil for them goes to `setNilValueForKey`), arrays and sets are
    /// to-many, the rest are objects.
    static func valueType<V>(_ type: V.Type) -> ValueType {
        switch type {
        case is Int.Type, is Int32.Type, is Int64.Type, is UInt.Type: return .int
        case is Double.Type, is Float.Type, is CGFloat.Type: return .double
        case is Bool.Type: return .bool
        case is String.Type: return .any
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") || name.hasPrefix("Optional<Array<") { return .array(.any) }
            if name.hasPrefix("Set<") || name.hasPrefix("Optional<Set<") { return .set(.any) }
            return .any
        }
    }

    static func swiftTypeName(_ value: Value) -> String {
        switch value {
        case .null: return "NSNull"
        case .bool: return "__NSCFBoolean"
        case .int, .double: return "__NSCFNumber"
        case .string: return "__NSCFString"
        case .object(let object): return object.cls.runtimeName
        case .array: return "__NSArrayM"
        case .set: return "__NSSetM"
        default: return value.foundationClassName
        }
    }

    /// The change dictionary `observeValue` receives.
    static func dictionary(_ change: Change) -> [NSKeyValueChangeKey: Any] {
        // A change told to many observers with the same options (B2: 10,000
        // of them) is bridged once: each dictionary was two NSNumbers and a
        // hashed dictionary, two thirds of a notification's cost. Kept only
        // when its values are numbers or strings: a kept dictionary holding a
        // program's object would keep it alive past its last use, and its
        // deinit would run later than on a Mac.
        let process = _KVOProcess.shared
        if let last = process.lastBridgedChange, same(last.change, change) { return last.dictionary }
        let result = makeDictionary(change)
        process.lastBridgedChange = isScalar(change.new) && isScalar(change.old) ? (change, result) : nil
        return result
    }

    private static func isScalar(_ value: Value?) -> Bool {
        switch value {
        case nil, .null?, .bool?, .int?, .double?, .float?, .string?: return true
        default: return false
        }
    }

    /// The same change, value for value and of the same types: `Value`'s
    /// `==` compares numbers across Int, Double and Bool as NSNumber does,
    /// where the bridged dictionary keeps each number's type (`__NSCFBoolean`)
    /// and a Double's sign (`-0`).
    private static func same(_ a: Change, _ b: Change) -> Bool {
        a.kind == b.kind && a.isPrior == b.isPrior && a.indexes == b.indexes && same(a.new, b.new)
            && same(a.old, b.old)
    }

    private static func same(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case (nil, nil), (.null?, .null?): return true
        case (.bool(let x)?, .bool(let y)?): return x == y
        case (.int(let x)?, .int(let y)?): return x == y
        case (.double(let x)?, .double(let y)?): return x.bitPattern == y.bitPattern
        case (.float(let x)?, .float(let y)?): return x.bitPattern == y.bitPattern
        // By bytes: String's `==` equates "é" and "e\u{301}", NSString does not.
        case (.string(let x)?, .string(let y)?): return x.utf8.elementsEqual(y.utf8)
        default: return false
        }
    }

    private static func makeDictionary(_ change: Change) -> [NSKeyValueChangeKey: Any] {
        var result: [NSKeyValueChangeKey: Any] = [.kindKey: NSNumber(value: change.kind.rawValue)]
        if let new = change.new { result[.newKey] = swiftValue(new) ?? NSNull() }
        if let old = change.old { result[.oldKey] = swiftValue(old) ?? NSNull() }
        // An NSIndexSet, printed as Foundation prints one; `as? IndexSet` casts back.
        if let indexes = change.indexes { result[.indexesKey] = NSIndexSet(indexSet: IndexSet(indexes)) }
        if change.isPrior { result[.notificationIsPriorKey] = NSNumber(value: true) }
        return result
    }

    /// A change dictionary back to the engine's (for NSObject's exception text).
    static func change(_ dictionary: [NSKeyValueChangeKey: Any]?) -> Change {
        let dictionary = dictionary ?? [:]
        let kindNumber = (dictionary[.kindKey] as? NSNumber)?.intValue ?? 1
        var change = Change(kind: Change.Kind(rawValue: kindNumber) ?? .setting)
        if let new = dictionary[.newKey] { change.new = value(new) }
        if let old = dictionary[.oldKey] { change.old = value(old) }
        if let indexes = dictionary[.indexesKey] as? IndexSet { change.indexes = Array(indexes) }
        change.isPrior = dictionary[.notificationIsPriorKey] != nil
        return change
    }

    static func describe(_ value: Value) -> String { value.collectionDescription }
}
