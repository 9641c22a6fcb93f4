import KVOCore

/// Foundation's descriptions as a Mac gives them, where
/// swift-corelibs-foundation's differ (SPEC §3, §11.8): collections with
/// Apple's indentation, quoting and sorted keys, boxed structs as
/// `NSPoint: {1, 2}`, an index set with its ranges, a bridged number's class.
extension _KVOPrinter {
    /// An `NSArray`, `NSDictionary` or `NSSet` at nesting `level`, as
    /// `-descriptionWithLocale:indent:` writes it: the description starts
    /// with its own level's indentation (so a nested one reads `c =     (`
    /// inside a dictionary), elements one a line a level deeper, strings and
    /// numbers quoted unless a plain word. Nil for anything else.
    static func collectionDescription(_ item: Any, level: Int) -> String? {
        let type = type(of: item)
        if type is NSArray.Type, let array = item as? NSArray {
            return listDescription(array.map { $0 }, open: "(", close: ")", level: level)
        }
        if type is NSSet.Type, let set = item as? NSSet {
            // Hash order on a Mac; sorted here, as §3 sorts a set, so that it repeats.
            let elements = set.map { ($0, elementDescription($0, level: level + 1)) }
            let sorted = elements.sorted { $0.1 < $1.1 }.map(\.0)
            return listDescription(sorted, open: "{(", close: ")}", level: level)
        }
        if type is NSDictionary.Type, let dictionary = item as? NSDictionary {
            return dictionaryDescription(dictionary, level: level)
        }
        return nil
    }

    private static func indentation(_ level: Int) -> String { String(repeating: " ", count: 4 * level) }

    private static func listDescription(_ elements: [Any], open: String, close: String, level: Int) -> String {
        let outer = level == 0 ? "" : indentation(level)
        guard !elements.isEmpty else { return outer + open + "\n" + outer + close }
        let lines = elements.map { indentation(level + 1) + elementDescription($0, level: level + 1) }
        return outer + open + "\n" + lines.joined(separator: ",\n") + "\n" + outer + close
    }

    /// Keys sorted when they are all strings or all numbers (Apple sorts keys
    /// that answer `compare:` alike), else in the dictionary's own order.
    private static func dictionaryDescription(_ dictionary: NSDictionary, level: Int) -> String {
        let outer = level == 0 ? "" : indentation(level)
        var keys = dictionary.allKeys
        if let strings = keys as? [String], keys.allSatisfy({ !(type(of: $0) is NSNumber.Type) }) {
            keys = strings.sorted()
        } else if keys.allSatisfy({ type(of: $0) is NSNumber.Type }), let numbers = keys as? [NSNumber] {
            keys = numbers.sorted { $0.doubleValue < $1.doubleValue }
        }
        let lines = keys.map { key -> String in
            let value = dictionary.object(forKey: key) ?? NSNull()
            return indentation(level + 1) + elementDescription(key, level: level + 1) + " = "
                + elementDescription(value, level: level + 1) + ";"
        }
        return outer + "{\n" + lines.map { $0 + "\n" }.joined() + outer + "}"
    }

    /// One element: a nested collection at its level, an object by its own
    /// description, the rest as the engine describes a collection's element.
    private static func elementDescription(_ element: Any, level: Int) -> String {
        if let nested = collectionDescription(element, level: level) { return nested }
        if let object = element as? NSObject { return object.description }
        if let text = valueDescription(element) { return text }
        return _KVOBridge.value(element).collectionDescription
    }

    /// An `NSValue` boxing a struct (`NSPoint: {1, 2}`, `NSRange: {1, 2}`)
    /// and an `NSIndexSet` (`<_NSCachedIndexSet: _NSCachedIndexSet#1>[number
    /// of indexes: 1 (in 1 ranges), indexes: (2)]`, a name for its address as
    /// §3.1 gives one); nil for anything else.
    static func valueDescription(_ item: Any) -> String? {
        let type = type(of: item)
        if type is NSIndexSet.Type, let indexes = item as? NSIndexSet { return indexSetDescription(indexes) }
        guard type is NSValue.Type, !(type is NSNumber.Type), let value = item as? NSValue else { return nil }
        let encoding = String(cString: value.objCType)
        func number(_ x: CGFloat) -> String { Value.describe(double: Double(x)) }
        if encoding.hasPrefix("{CGPoint") {
            return "NSPoint: {\(number(value.pointValue.x)), \(number(value.pointValue.y))}"
        }
        if encoding.hasPrefix("{CGSize") {
            return "NSSize: {\(number(value.sizeValue.width)), \(number(value.sizeValue.height))}"
        }
        if encoding.hasPrefix("{CGRect") {
            let rect = value.rectValue
            return "NSRect: {{\(number(rect.origin.x)), \(number(rect.origin.y))}, "
                + "{\(number(rect.size.width)), \(number(rect.size.height))}}"
        }
        if encoding.hasPrefix("{_NSRange") {
            return "NSRange: {\(value.rangeValue.location), \(value.rangeValue.length)}"
        }
        return nil
    }

    /// `-[NSIndexSet description]`: a single index is one of Foundation's
    /// cached sets (`_NSCachedIndexSet`), ranges are `first-last`.
    private static func indexSetDescription(_ indexes: NSIndexSet) -> String {
        var ranges: [String] = []
        indexes.enumerateRanges(options: []) { range, _ in
            let last = range.location + max(range.length, 1) - 1
            ranges.append(range.length == 1 ? "\(range.location)" : "\(range.location)-\(last)")
        }
        let className = indexes.count == 1 ? "_NSCachedIndexSet" : "NSIndexSet"
        let name = _KVOProcess.shared.name(of: indexes, className: className)
        return "<\(className): \(name)>[number of indexes: \(indexes.count) (in \(ranges.count) ranges), "
            + "indexes: (\(ranges.joined(separator: " ")))]"
    }

    /// The class a Mac's bridging gives a value, where corelibs' differs:
    /// an `NSNumber` is a `__NSCFNumber` (a Bool's `__NSCFBoolean` already is).
    static func bridgedTypeName(_ type: Any.Type) -> String? {
        type == NSNumber.self ? "__NSCFNumber" : nil
    }
}
