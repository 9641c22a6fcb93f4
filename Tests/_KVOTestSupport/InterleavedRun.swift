import KVOHost
import KVOScript

/// `session.run(source, file:)` with standard output and standard error
/// captured into one text, in the order they were written, as a golden file
/// holds them (`Golden.run`); `status` is the run's exit status.
public func runInterleaved(
    _ source: String, options: RunOptions = RunOptions(), format: OutputFormatKind = .text,
    file: String = "t.kvo"
) -> (status: Int32, text: String) {
    onLargeStack {
        let writer = OutputWriter(capturing: ())
        let session = Session.commandLine(
            options: options,
            output: EventRenderer(format: format, out: writer, err: writer))
        let status = session.run(source, file: file)
        return (status, writer.capturedText)
    }
}
