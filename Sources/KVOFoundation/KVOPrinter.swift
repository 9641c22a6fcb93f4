import KVOCore

enum _KVOPrinter {
    static func print(_ items: [Any], separator: String, terminator: String) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        if items.count == 1, let info = items[0] as? _KVOObservationInfo? {
            if let info {
                process.output.emit(
                    .observationInfo(
                        object: info.object, observances: info.object.observanceSnapshots, depth: process.kvo.depth))
            } else {
                write("nil" + terminator, depth: process.kvo.depth)
            }
            return
        }
        let text = items.map { describe($0) }.joined(separator: separator)
        write(text + terminator, depth: process.kvo.depth)
    }

    static func debugPrint(_ items: [Any], separator: String, terminator: String) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        let text = items.map { debugDescribe($0) }.joined(separator: separator)
        write(text + terminator, depth: process.kvo.depth)
    }

    /// Text printed without a newline yet (`_KVOProcess.partialPrint`): an
    /// event is one whole line. Text printed at another depth (a handler's,
    /// or the code's after a handler) first ends the open line where it was
    /// printed, as anything else written does (`_KVOEventOutput.emit`).
    static func write(_ text: String, depth: Int) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        if !process.partialPrint.isEmpty, process.partialDepth != depth { endOpenLine(process) }
        var rest = Substring(process.partialPrint + text)
        process.partialPrint = ""
        while let newline = rest.firstIndex(of: "\n") {
            process.output.emit(.print(text: String(rest[..<newline]), depth: depth))
            rest = rest[rest.index(after: newline)...]
        }
        process.partialPrint = String(rest)
        process.partialDepth = depth
    }

    /// The text of `print(…, terminator: "")` as a line of its own, at the
    /// depth it was printed at: a notification or a handler's print that
    /// comes next does not take it into its own line.
    static func endOpenLine(_ process: _KVOProcess) {
        guard !process.partialPrint.isEmpty else { return }
        let text = process.partialPrint
        process.partialPrint = ""
        process.output.emit(.print(text: text, depth: process.partialDepth))
    }

    /// How `print` shows one item.
    static func describe(_ item: Any) -> String {
        foundationDescription(item, topLevel: true) ?? swiftDescription(item)
    }

    /// `\Account.balance`, as Swift prints a key path on a Mac, where Linux
    /// prints `\Account.<computed 0x… (Int)>`: the name the runtime knows for
    /// it (a class's key paths are named when the class is described).
    static func keyPathDescription(_ keyPath: AnyKeyPath) -> String? {
        let root = type(of: keyPath).rootType
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        if let type = root as? NSObject.Type { _ = process.classInfo(for: type) }
        guard let name = process.keyPathNames[keyPath] else { return nil }
        return "\\" + _typeName(root, qualified: false) + "." + name
    }

    /// Swift's own `String(describing:)`: generic, so that this module's
    /// overload for `Any` (which calls `describe`) is not chosen.
    static func swiftDescription<T>(_ value: T) -> String { String(describing: value) }

    /// How an item shows inside a collection or an optional (`debugPrint`).
    static func debugDescribe(_ item: Any) -> String {
        foundationDescription(item, topLevel: false) ?? String(reflecting: item)
    }

    /// The descriptions the runtime supplies as Apple's Foundation would
    /// (optionals holding them, NSNumbers, change dictionaries, arrays of
    /// them); nil where Swift's own printing is already right. At top level
    /// an NSNull is not taken for an optional.
    private static func foundationDescription(_ item: Any, topLevel: Bool) -> String? {
        if let optional = item as? _KVOOptional, !topLevel || type(of: item) != NSNull.self {
            guard let wrapped = optional._kvoWrapped else { return "nil" }
            return "Optional(\(debugDescribe(wrapped)))"
        }
        if let keyPath = item as? AnyKeyPath, let text = keyPathDescription(keyPath) { return text }
        if let number = item as? NSNumber, type(of: item) is NSNumber.Type {
            return numberDescription(number)
        }
        if let text = collectionDescription(item, level: 0) { return text }
        if let text = valueDescription(item) { return text }
        if let type = item as? Any.Type, let name = bridgedTypeName(type) { return name }
        if let change = item as? [NSKeyValueChangeKey: Any] { return changeDescription(change) }
        // corelibs prints `Code=42 "(null)"UserInfo=…`; a Mac the description.
        if let error = item as? NSError, type(of: item) is NSError.Type { return _KVOErrors.describe(error) }
        if let array = item as? [Any], array.contains(where: needsFoundationDescription) {
            return "[" + array.map(debugDescribe).joined(separator: ", ") + "]"
        }
        return nil
    }

    private static func needsFoundationDescription(_ item: Any) -> Bool {
        let type = type(of: item)
        return type is NSNumber.Type || type is NSArray.Type || type is NSDictionary.Type || type is NSSet.Type
            || type is NSValue.Type || type is NSIndexSet.Type || item is _KVOOptional
    }

    /// NSNumber's description on a Mac.
    static func numberDescription(_ number: NSNumber) -> String {
        // A boolean NSNumber is `1` / `0` (`__NSCFBoolean`'s description).
        let value = _KVOBridge.value(number)
        return value.numberDescription ?? value.printDescription
    }

    /// `[__C.NSKeyValueChangeKey(_rawValue: kind): 1, …]`, in Apple's key order.
    static func changeDescription(_ change: [NSKeyValueChangeKey: Any]) -> String {
        let keys = change.keys.sorted { $0._order < $1._order }
        let entries = keys.map { key -> String in
            let value = change[key] ?? NSNull()
            let shown: String
            switch value {
            case is NSNull: shown = "<null>"
            case let text as String: shown = text
            default: shown = debugDescribe(value)
            }
            return "\(key.debugDescription): \(shown)"
        }
        return "[" + entries.joined(separator: ", ") + "]"
    }
}
