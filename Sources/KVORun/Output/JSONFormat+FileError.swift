import KVOOutput

extension JSONFormat {
    /// An error about a scenario file itself (unreadable, not UTF-8, too
    /// large): an `error` event naming the file, with the position of the
    /// bad bytes when there is one.
    static func fileError(_ failure: Files.Failure) -> String {
        var pairs = [("event", string("error")), ("message", string(failure.message))]
        if let (line, column) = failure.position {
            pairs += [("line", String(line)), ("column", String(column))]
        }
        return object(pairs + [("file", string(failure.path))])
    }
}
