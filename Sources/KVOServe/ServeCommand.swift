import ArgumentParser
import KVOCore
import KVOHost
import KVORun
import KVOScript
#if canImport(Glibc)
import Glibc
#endif

/// `kvo-run serve`: the playground, a page where a scenario is edited, run
/// and explained in the browser (docs/cli.md#serve).
public struct ServeCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the KVO playground: edit, run and explain scenarios in a browser.",
        discussion: """
            Serves one page on 127.0.0.1 (this machine only) unless --host names another address. The \
            page has an editor (Ctrl-Enter runs) and shows the output, the --explain steps of the line \
            you click, the observation graph at the cursor's line and the sequence diagram. The \
            scenario lives in the page's address (after '#'), so a link shares it; the server keeps \
            nothing. The examples of the tutorial and of the guide are in the page's menu.

            Scenarios run in kvo-run's own process, one at a time, each request within --timeout \
            seconds and --max-steps statements; a runaway scenario is stopped with its message. \
            Swift programs are arbitrary code: they run only with --allow-swift, compiled and run as \
            'kvo-run FILE.swift' runs them, within 60 seconds and 2 GiB. See docs/cli.md#serve.

            Examples:
              kvo-run serve                          open http://127.0.0.1:8080/
              kvo-run serve --port 0                 any free port (the first line names it)
              kvo-run serve --allow-swift            Swift programs run too
            """)

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "The address to listen on (default 127.0.0.1). Any other lets other machines run scenarios here.",
            valueName: "addr"))
    var host = "127.0.0.1"

    @Flag(help: "Run Swift programs too: arbitrary code, compiled and run on this machine.")
    var allowSwift = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seconds a request's runs of a scenario may take together.", valueName: "s"))
    var timeout: Double = 5

    @Option(help: ArgumentHelp("Statements a run may execute.", valueName: "n"))
    var maxSteps = 1_000_000

    @Option(help: ArgumentHelp("How deep notifications and calls may nest.", valueName: "n"))
    var maxDepth = KVORuntime.defaultMaxDepth

    @Option(help: ArgumentHelp("Connections served at once; past that, 503.", valueName: "n"))
    var maxConnections = 32

    @Option(help: ArgumentHelp("Runs waiting for their turn; past that, 503.", valueName: "n"))
    var maxWaiting = 64

    public func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        guard timeout > 0, timeout.isFinite else {
            throw ValidationError("--timeout must be a positive number of seconds, got \(timeout)")
        }
        try ScenarioOptions.validateLimits(maxDepth: maxDepth, maxSteps: maxSteps)
        guard maxConnections > 0, maxWaiting > 0 else {
            throw ValidationError("--max-connections and --max-waiting must be 1 or more")
        }
    }

    /// The loopback addresses: served without a warning.
    static let loopback: Set<String> = ["127.0.0.1", "::1", "localhost"]

    public func run() throws {
        var limits = PlaygroundLimits()
        limits.seconds = timeout
        limits.maxSteps = maxSteps
        limits.maxDepth = maxDepth
        limits.allowSwift = allowSwift
        let page: PageFiles
        do {
            page = try PageFiles.load()
        } catch {
            Self.say("kvo-run: \(error)\n", to: 2)
            throw ExitCode(ExitStatus.usage)
        }
        let examples = PlaygroundExamples.load(allowSwift: allowSwift)
        let queue = RunQueue(maxWaiting: maxWaiting)
        let isLoopback = Self.loopback.contains(host)
        let box = RoutesBox()
        let server: HTTPServer
        do {
            server = try HTTPServer(
                host: host, port: port, maxConnections: maxConnections, maxBodyBytes: Files.maxSourceBytes + 4096
            ) { request in box.routes?.respond(to: request) ?? .error(503, "the server is starting") }
        } catch {
            Self.say("kvo-run: \(error)\n", to: 2)
            throw ExitCode(ExitStatus.usage)
        }
        // The names a request's Host may give: the address and port served
        // (any, on an address other machines reach by their own names).
        let shown = host.contains(":") ? "[\(host)]" : host
        let hosts: Set<String>? =
            isLoopback
            ? [
                "\(shown):\(server.port)", "127.0.0.1:\(server.port)", "localhost:\(server.port)",
                "[::1]:\(server.port)",
            ]
            : nil
        box.routes = PlaygroundRoutes(
            page: page, examplesJSON: examples.json(allowSwift: allowSwift), queue: queue,
            playground: UnsafeSendable(value: Playground(limits: limits)), hosts: hosts)
        if !isLoopback {
            Self.say(
                "kvo-run: warning: serving on \(host): anyone who can reach it can run scenarios on this machine"
                    + (allowSwift ? ", and Swift programs (--allow-swift): arbitrary code as your user" : "") + "\n",
                to: 2)
        } else if allowSwift {
            Self.say(
                "kvo-run: warning: --allow-swift: programs sent from the page run as your user on this machine\n",
                to: 2)
        }
        Self.say("kvo-run serve: http://\(shown):\(server.port)/ (Ctrl-C stops it)\n", to: 1)
        guard Threads.start({ server.serve() }) else {
            Self.say("kvo-run: cannot start the thread that accepts connections\n", to: 2)
            throw ExitCode(ExitStatus.failure)
        }
        // The runs happen on this large-stack thread, for ever.
        LargeStack.run { queue.serve() }
    }

    static func say(_ text: String, to descriptor: Int32) {
        _ = text.utf8CString.withUnsafeBufferPointer { buffer in
            write(descriptor, buffer.baseAddress, buffer.count - 1)
        }
    }
}

/// The routes, set once the server's port (and so the accepted Host names)
/// is known, before the first connection is accepted.
final class RoutesBox: @unchecked Sendable {
    var routes: PlaygroundRoutes?
}
