import KVOCore

/// The JSON Lines format of docs/language.md#json-format, written by hand: the events are flat
/// and their keys fixed, and a generic encoder would cost a dictionary per line.
public enum JSONFormat {
    public static func render(_ event: Event) -> String {
        switch event {
        case .notify(let object, let keyPath, let observer, let change, let context, let depth):
            return object_([
                ("event", string("notify")), ("object", string(object.name)), ("keyPath", string(keyPath)),
                ("observer", string(observer.name)), ("change", encode(change)),
                ("context", context.map { string($0.name) } ?? "null"), ("depth", String(depth)),
            ])
        case .print(let text, let depth):
            return object_([("event", string("print")), ("text", string(text)), ("depth", String(depth))])
        case .exception(let exception, let caught):
            var pairs = [
                ("event", string("exception")), ("name", string(exception.name)), ("reason", string(exception.reason)),
                ("caught", caught ? "true" : "false"), ("depth", String(exception.depth)),
            ]
            // Where it was raised (SPEC §8.2): the statement that raised it,
            // stamped as the exception unwound through it.
            if let line = exception.line, let column = exception.column {
                pairs += [("line", String(line)), ("column", String(column))]
            }
            return object_(pairs)
        case .observationInfo(let object, let observances, _):
            let items = observances.map { item in
                object_([
                    ("observer", string(item.observer)), ("keyPath", string(item.keyPath)),
                    ("options", "[" + item.options.names.map(string).joined(separator: ",") + "]"),
                    ("context", item.context.map { string($0.name) } ?? "null"),
                ])
            }
            return object_([
                ("event", string("observationInfo")), ("object", string(object.name)),
                ("observances", "[" + items.joined(separator: ",") + "]"),
            ])
        case .explain(let step, let depth):
            return explain(step, depth: depth)
        case .graph(let objects, let depth):
            return object_([
                ("event", string("graph")), ("dot", string(ObservationGraph.dot(from: objects))),
                ("depth", String(depth)),
            ])
        }
    }

    public static func object(_ pairs: [(String, String)]) -> String { object_(pairs) }

    private static func object_(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    public static func encode(_ change: Change) -> String {
        var pairs: [(String, String)] = []
        if let indexes = change.indexes {
            pairs.append(("indexes", "[" + indexes.map(String.init).joined(separator: ",") + "]"))
        }
        pairs.append(("kind", String(change.kind.rawValue)))
        if let new = change.new { pairs.append(("new", encode(new))) }
        if change.isPrior { pairs.append(("notificationIsPrior", "true")) }
        if let old = change.old { pairs.append(("old", encode(old))) }
        return object_(pairs)
    }

    public static func encode(_ value: Value) -> String {
        var output = ""
        encode(value, into: &output)
        return output
    }

    /// Arrays and sets are encoded with an explicit stack into one buffer, as
    /// their text descriptions are: nesting costs no native stack, a million
    /// levels cost linear time, and past `Value.descriptionLimit` bytes (an
    /// array holding itself twice per level grows exponentially) the rest is
    /// replaced by `"…"`.
    public static func encode(_ value: Value, into output: inout String) {
        Value.writeNested(
            value, into: &output, separator: ",", cut: string("…"),
            open: { value, output in
                switch value {
                case .array(let values):
                    output += "["
                    return (.packed(values), "]")
                case .set(let set):
                    output += "{\"set\":["
                    return (.values(set.sorted), "]}")
                default:
                    return nil
                }
            }, scalar: scalar)
    }

    private static func scalar(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let int): return String(int)
        // JSON has no NaN or infinity: the words the text format prints, as strings.
        case .double(let double):
            // JSON keeps the number itself: the shortest text that reads back.
            return double.isFinite
                ? Value.shortestDescription(double: double) : string(Value.shortestDescription(double: double))
        case .float(let float):
            return float.isFinite ? Value.describe(float: float) : string(Value.describe(float: float))
        // An NSDecimalNumber's digits, all of them (JSON numbers have no
        // precision limit).
        case .decimal(let decimal): return decimal.description
        case .string(let text): return string(text)
        case .object(let object):
            return object_([
                ("object", string(object.name)),
                ("class", string(object.cls.runtimeName)),
            ])
        case .array, .set: return encode(value)
        case .change(let change): return encode(change)
        case .context(let context): return string(context.name)
        case .option, .setMutation, .arrayProxy, .setProxy, .observationInfo, .exception:
            return string(value.collectionDescription)
        }
    }

    public static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where ControlCharacters.mustEscape(scalar):
                // Control and bidi characters are valid JSON raw, but a JSON
                // line read on a terminal must not act on it.
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
