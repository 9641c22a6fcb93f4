import KVOCore

/// `--format`.
public enum OutputFormatKind: String, Sendable, CaseIterable {
    case text, json
}
