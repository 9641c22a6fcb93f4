#if canImport(Glibc)
import Glibc
#endif
import KVOCore
import KVOOutput
import KVOScript

/// A picture asked for without a file while standard output is a terminal
/// (`kvo-run graph FILE`, `kvo-run trace FILE`, the REPL's `:graph`), where
/// DOT or SVG text is of no use to anyone: it is written to a file in a new
/// private temporary folder, named after the scenario, and the path is said.
enum TerminalPicture {
    /// Whether a picture without a file would go to a terminal.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    /// The suffix of the graph's file: SVG when Graphviz can render it.
    static var graphSuffix: String { ExternalTool.find("dot") != nil ? ".svg" : ".dot" }

    /// Writes the picture with `write(path)` to `folder/NAME.what.suffix` and
    /// says where (with `hint`, how to choose the place), or why not.
    static func write(
        scenario: String, what: String, suffix: String, hint: String, _ write: (String) -> Int32
    ) -> Int32 {
        guard let folder = Files.temporaryFolder() else {
            Runner.stderr(
                "kvo-run: cannot make a temporary folder for the \(what) (\(Files.errorText(errno))); \(hint)\n")
            return ExitStatus.failure
        }
        var name = Files.baseName(scenario)
        if name == "-" || name.isEmpty { name = "stdin" }
        // bank.swift draws bank.graph.svg, as bank.kvo does.
        if let suffix = Golden.sourceSuffixes.first(where: name.hasSuffix) {
            name = String(name.dropLast(suffix.count))
        }
        let path = folder + "/" + name + "." + what + suffix
        let status = write(path)
        if status == ExitStatus.success { Runner.stdout("the \(what) is in \(path) (\(hint))\n") }
        return status
    }
}
