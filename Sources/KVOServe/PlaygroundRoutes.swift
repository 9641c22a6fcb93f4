#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import KVORun

/// What `kvo-run serve` answers, by method and path (docs/cli.md#serve):
/// the page and its two files, the examples, and the two runs. Runs on the
/// connection threads; whatever needs the interpreter goes through the
/// `RunQueue` to its one thread.
struct PlaygroundRoutes: Sendable {
    let page: PageFiles
    /// `GET /examples`' body, made once at start-up.
    let examplesJSON: String
    let queue: RunQueue
    /// The playground, used only on the queue's thread.
    let playground: UnsafeSendable<Playground>
    /// `Host` values a request may name: the address served and its port
    /// (and `localhost` for a loopback address). A web page elsewhere that
    /// makes its name resolve to 127.0.0.1 (DNS rebinding) names its own
    /// host, and is refused. Nil: any (an address other machines reach by
    /// their own names for this one).
    let hosts: Set<String>?

    /// The body of `POST /run` and `POST /graph`.
    struct RunRequest: Decodable {
        var source: String
        var line: Int?
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        if let hosts, !hosts.contains(request.header("host")?.lowercased() ?? "") {
            return .error(403, "this server answers requests for \(hosts.sorted().joined(separator: " or ")) only")
        }
        switch (request.method, request.path) {
        case ("GET", "/"):
            return page.response(for: "index.html")
        case ("GET", "/page.css"), ("GET", "/page.js"):
            return page.response(for: String(request.path.dropFirst()))
        case ("GET", "/examples"):
            return HTTPResponse(status: 200, json: examplesJSON)
        case ("POST", "/run"), ("POST", "/graph"):
            return run(request, graphOnly: request.path == "/graph")
        case (_, "/"), (_, "/page.css"), (_, "/page.js"), (_, "/examples"), (_, "/run"), (_, "/graph"):
            return .error(405, "\(request.method) is not answered at \(request.path)")
        default:
            return .error(404, "nothing at \(request.path): the playground is at /")
        }
    }

    private func run(_ request: HTTPRequest, graphOnly: Bool) -> HTTPResponse {
        // A JSON content type: a page elsewhere cannot send one without the
        // browser asking first (a CORS preflight this server never allows),
        // so no other site can run programs here through the user's browser.
        guard request.header("content-type")?.lowercased().hasPrefix("application/json") == true else {
            return .error(415, "send the request as JSON: Content-Type: application/json")
        }
        if let origin = request.header("origin")?.lowercased(),
            origin != "http://" + (request.header("host")?.lowercased() ?? "")
        {
            return .error(403, "requests from \(origin) are not answered: only the playground's own page runs here")
        }
        let body: RunRequest
        do {
            body = try JSONDecoder().decode(RunRequest.self, from: Data(request.body))
        } catch {
            return .error(400, "the body must be JSON: {\"source\": \"…\", \"line\": N}")
        }
        if let line = body.line, line < 1 {
            return .error(400, "line must be 1 or more, got \(line)")
        }
        let playground = self.playground
        let answer = queue.run {
            let answer =
                graphOnly
                ? playground.value.graph(source: body.source, line: body.line)
                : playground.value.run(source: body.source, line: body.line)
            return HTTPResponse(status: answer.status, json: answer.json)
        }
        return answer
            ?? .error(503, "the server is busy: \(queue.maxWaiting) runs are waiting; try again in a moment")
    }
}

/// A value used on one thread only, carried across to it (the playground,
/// which lives on the runner thread).
struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
}
