import KVOCore

extension Compiler {
    /// `print(items…, separator: s, terminator: t)`: items joined by the
    /// separator (default a space), then the terminator (default a line
    /// break). Text after the last line break waits for the next print, which
    /// continues that line; the end of a run or REPL entry ends it.
    func compileLabelledPrint(_ arguments: [Argument]) -> Typed {
        let items = arguments.filter { $0.label == nil }.map { compileExpr($0.value).eval }
        let separator = arguments.first { $0.label == "separator" }.map { compileExpr($0.value).eval }
        let terminator = arguments.first { $0.label == "terminator" }.map { compileExpr($0.value).eval }
        return Typed({ machine in
            let meter = machine.kvo.work
            var parts: [String] = []
            for item in items { parts.append(try item(machine).printDescription(meter: meter)) }
            let separatorText = try separator.map { try Self.printString($0(machine), "separator") } ?? " "
            let terminatorText = try terminator.map { try Self.printString($0(machine), "terminator") } ?? "\n"
            var text = (machine.pendingPrint ?? "") + parts.joined(separator: separatorText) + terminatorText
            machine.pendingPrint = nil
            if text.utf8.count > Operators.maxStringBytes {
                throw ScriptError.runtime(.printTooLarge(limit: Operators.maxStringBytes))
            }
            guard let lastBreak = text.lastIndex(where: { $0 == "\n" || $0 == "\r\n" }) else {
                machine.pendingPrint = text
                return .null
            }
            let rest = String(text[text.index(after: lastBreak)...])
            text = String(text[..<lastBreak])
            machine.pendingPrint = rest.isEmpty ? nil : rest
            machine.emit(.print(text: text, depth: machine.kvo.depth))
            return .null
        })
    }

    static func printString(_ value: Value, _ label: String) throws -> String {
        guard case .string(let text) = value else {
            throw ScriptError.runtime(.printLabelNotString(label: label, type: value.typeName))
        }
        return text
    }
}
