import KVOOutput
import KVOScript

/// The REPL's `:explain on|off` and `:graph [FILE]`.
enum REPLPictures {
    static func explain(_ argument: String, session: Session) {
        switch argument {
        case "on", "off":
            session.kvo.explains = argument == "on"
            Runner.stdout(
                argument == "on"
                    ? "explain on: each step of the KVO machinery is shown as '#' lines\n"
                    : "explain off\n")
        case "":
            Runner.stdout("explain is \(session.kvo.explains ? "on" : "off"); ':explain on' or ':explain off'\n")
        default:
            Runner.stdout(":explain takes 'on' or 'off', as in ':explain on'\n")
        }
    }

    static func graph(_ argument: String, session: Session) {
        let dot = session.graph
        guard !argument.isEmpty else {
            // DOT on a terminal is of no use: a picture in a temporary file.
            _ = TerminalPicture.write(
                scenario: "repl", what: "graph", suffix: TerminalPicture.graphSuffix,
                hint: "':graph FILE' writes it elsewhere"
            ) { GraphRendering.write(dot, to: $0) }
            return
        }
        guard argument.hasSuffix(".dot") || argument.hasSuffix(".svg") else {
            Runner.stdout(":graph writes a .dot or an .svg file, as in ':graph graph.svg'\n")
            return
        }
        if GraphRendering.write(dot, to: argument) == ExitStatus.success {
            Runner.stdout("wrote \(argument)\n")
        }
    }
}
