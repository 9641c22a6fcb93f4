import ArgumentParser

/// `--format`: the one output-format enum, for the parser (`run`, `check`),
/// the renderer and a compiled Swift program's settings alike.
public enum OutputFormatKind: String, Sendable, CaseIterable, ExpressibleByArgument {
    case text, json
}
