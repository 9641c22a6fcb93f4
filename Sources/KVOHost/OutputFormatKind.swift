/// `--format`: the one output-format enum, for the parser (`run`, `check`:
/// KVORun makes it `ExpressibleByArgument`), the renderer and a compiled
/// Swift program's settings alike.
public enum OutputFormatKind: String, Sendable, CaseIterable {
    case text, json
}
