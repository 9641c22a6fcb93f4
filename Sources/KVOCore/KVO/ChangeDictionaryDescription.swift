/// The change as `%@` formats an NSDictionary: its multi-line description,
/// which the unhandled-notification reason shows (SPEC §7):
/// `{` newline, `    kind = 1;` newline, `    new = 2;` newline, `}`.
extension Change {
    public var dictionaryDescription: String {
        var text = "{\n"
        func entry(_ key: String, _ value: Value) {
            text += "    " + key + " = "
            Value.describeIndented(value, level: 1, into: &text)
            text += ";\n"
        }
        if let indexes { entry("indexes", .array(indexes.map(Value.int))) }
        entry("kind", .int(kind.rawValue))
        if let new { entry("new", new) }
        if isPrior { entry("notificationIsPrior", .int(1)) }
        if let old { entry("old", old) }
        return text + "}"
    }
}

extension Value {
    /// NSArray's and NSSet's `descriptionWithLocale:indent:` inside a
    /// dictionary at `level`: one element a line, four spaces a level,
    /// `(` … `)` and `{(` … `)}`; elements described as in §3. Nested without
    /// bound, so written with an explicit stack, and cut past
    /// `descriptionLimit` bytes as the one-line form is.
    static func describeIndented(_ value: Value, level: Int, into output: inout String) {
        var stack: [(elements: CollectionElements, next: Int, close: String, level: Int)] = []
        let start = output.utf8.count
        func open(_ value: Value, _ level: Int) {
            switch value {
            case .array(let elements):
                output += "("
                stack.append((.packed(elements), 0, ")", level))
            case .set(let set):
                output += "{("
                stack.append((.values(set.sorted), 0, ")}", level))
            default:
                output += value.scalarDescription
            }
        }
        func indent(_ level: Int) { for _ in 0..<level { output += "    " } }
        open(value, level)
        while let top = stack.last {
            let position = stack.count - 1
            if top.next == top.elements.count {
                output += "\n"
                indent(top.level)
                output += top.close
                stack.removeLast()
                continue
            }
            output += top.next == 0 ? "\n" : ",\n"
            indent(top.level + 1)
            if output.utf8.count - start > descriptionLimit {
                output += "…"
                while let frame = stack.popLast() { output += frame.close }
                return
            }
            stack[position].next += 1
            open(top.elements[top.next], top.level + 1)
        }
    }
}
