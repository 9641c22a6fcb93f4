import KVOHost

/// The renderers kvo-run writes to its own streams through, built here and
/// only here: whether a stream is coloured is the terminal's to say
/// (`Terminal.colorAllowed`), and a failed write to standard output is the
/// process's failure (`Runner.recordOutputFailure`), whoever wrote.
extension EventRenderer {
    /// Standard output and standard error, rendering in `format`; each
    /// stream is coloured only when it is itself a terminal (and `noColor`
    /// is off): `kvo-run run` and `check`.
    public static func standardStreams(format: OutputFormatKind, noColor: Bool) -> EventRenderer {
        EventRenderer(
            format: format, out: OutputWriter.standardOutput(), err: OutputWriter(descriptor: 2),
            color: !noColor && Terminal.colorAllowed(descriptor: 1),
            diagnosticColor: !noColor && Terminal.colorAllowed(descriptor: 2))
    }

    /// Everything on standard error, as text, diagnostics coloured on a
    /// terminal: the run behind a picture (`kvo-run graph`, `trace`).
    public static func standardError() -> EventRenderer {
        let err = OutputWriter(descriptor: 2)
        return EventRenderer(
            format: .text, out: err, err: err, color: false, diagnosticColor: Terminal.colorAllowed(descriptor: 2))
    }

}

extension OutputWriter {
    /// A writer to standard output whose failure is the process's.
    static func standardOutput() -> OutputWriter {
        let writer = OutputWriter(descriptor: 1)
        writer.onFailure = { Runner.recordOutputFailure($0) }
        return writer
    }
}
