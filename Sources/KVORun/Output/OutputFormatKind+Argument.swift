import ArgumentParser
import KVOHost

/// `--format text|json`, parsed straight into the renderer's enum.
extension OutputFormatKind: ExpressibleByArgument {}
