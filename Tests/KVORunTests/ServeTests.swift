import Foundation
import Testing
import _KVOTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `kvo-run serve` as a browser meets it: the real binary, over HTTP on
/// loopback. The page itself is tested in a real browser by
/// scripts/test-browser (`make test-browser`).
@Suite(.serialized) struct ServeTests {
    /// A running `kvo-run serve --port 0 …`, killed when the test ends.
    final class Server {
        let process = Process()
        let port: Int
        let errors = Pipe()

        init(_ arguments: [String] = []) throws {
            guard let binary = CLI.binary else { throw CLI.Failure("kvo-run not found") }
            process.executableURL = binary
            process.arguments = ["serve", "--port", "0"] + arguments
            process.environment = ChildProcess.quietEnvironment()
            let output = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // The first line names the address: "kvo-run serve: http://127.0.0.1:PORT/ …".
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty { break }
                line.append(byte)
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let range = text.range(of: "http://127.0.0.1:"),
                let port = Int(text[range.upperBound...].prefix { $0.isNumber })
            else {
                process.terminate()
                throw CLI.Failure("kvo-run serve did not name its port: \(text)")
            }
            self.port = port
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        var isRunning: Bool { process.isRunning }
    }

    /// A response as read off the socket.
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: String
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
    }

    /// A connection to the server: requests written as bytes, responses
    /// read by their Content-Length (so keep-alive can be checked).
    final class Connection {
        let descriptor: Int32
        private var buffer: [UInt8] = []

        init(port: Int, timeout: Int = 60) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw CLI.Failure("cannot connect to port \(port)") }
            var timeout = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(descriptor) }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        func request(
            _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:], port: Int
        ) throws -> Response {
            var all = ["Host": "127.0.0.1:\(port)"]
            if let body {
                all["Content-Type"] = "application/json"
                all["Content-Length"] = String(body.utf8.count)
            }
            all.merge(headers) { $1 }
            var text = "\(method) \(path) HTTP/1.1\r\n"
            for (name, value) in all.sorted(by: { $0.key < $1.key }) where !value.isEmpty {
                text += "\(name): \(value)\r\n"
            }
            send(text + "\r\n" + (body ?? ""))
            return try read()
        }

        /// The next response; fails when the server closes first.
        func read() throws -> Response {
            while true {
                if let end = find([13, 10, 13, 10]) {
                    let head = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                    let status = Int(head[0].split(separator: " ")[1]) ?? 0
                    var headers: [String: String] = [:]
                    for line in head.dropFirst() {
                        if let colon = line.firstIndex(of: ":") {
                            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                                .trimmingCharacters(in: .whitespaces)
                        }
                    }
                    let length = Int(headers["content-length"] ?? "0") ?? 0
                    if buffer.count >= end + 4 + length {
                        let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                        buffer.removeFirst(end + 4 + length)
                        return Response(status: status, headers: headers, body: body)
                    }
                }
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { throw CLI.Failure("the server closed the connection") }
                buffer += chunk[..<count]
            }
        }

        /// Whether the server closed the connection (reads end).
        func isClosed() -> Bool {
            var byte: UInt8 = 0
            return recv(descriptor, &byte, 1, 0) == 0
        }

        private func find(_ pattern: [UInt8]) -> Int? {
            guard buffer.count >= pattern.count else { return nil }
            for index in 0...(buffer.count - pattern.count)
            where Array(buffer[index..<(index + pattern.count)]) == pattern {
                return index
            }
            return nil
        }
    }

    static func runBody(_ source: String, line: Int? = nil) -> String {
        let object: [String: Any] = line.map { ["source": source, "line": $0] } ?? ["source": source]
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func thePageItsFilesAndTheExamplesAreServed() throws {
        let server = try Server()
        let connection = try Connection(port: server.port)
        let page = try connection.request("GET", "/", port: server.port)
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.body.contains("kvo-run playground"))
        #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        // Keep-alive: the same connection answers again.
        let script = try connection.request("GET", "/page.js", port: server.port)
        #expect(script.status == 200)
        #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
        let style = try connection.request("GET", "/page.css?v=1", port: server.port)
        #expect(style.status == 200)
        let examples = try connection.request("GET", "/examples", port: server.port)
        #expect(examples.status == 200)
        #expect(examples.json["allowSwift"] as? Bool == false)
        let groups = examples.json["groups"] as? [[String: Any]] ?? []
        #expect(groups.first?["title"] as? String == "Tutorial")
        #expect(try connection.request("GET", "/nothing", port: server.port).status == 404)
        #expect(try connection.request("DELETE", "/run", port: server.port).status == 405)
    }

    @Test func aRunAnswersWithTheOutputAndPictures() throws {
        let server = try Server()
        let connection = try Connection(port: server.port)
        let response = try connection.request(
            "POST", "/run", body: Self.runBody(PlaygroundTests.firstStep, line: 6), port: server.port)
        #expect(response.status == 200)
        #expect(
            response.json["output"] as? String == "acct.balance → alice {kind = 1}\nacct.balance → alice {kind = 1}\n")
        #expect((response.json["statements"] as? [Any])?.count == 5)
        #expect((response.json["trace"] as? [String: Any])?["svg"] is String)
        let graph = try connection.request(
            "POST", "/graph", body: Self.runBody(PlaygroundTests.firstStep, line: 5), port: server.port)
        #expect(graph.status == 200)
        #expect((graph.json["dot"] as? String)?.contains("balance") == true)
    }

    @Test func requestsFromElsewhereAndMalformedOnesAreRefused() throws {
        let server = try Server()
        let port = server.port
        let body = Self.runBody("let a = 1\n")
        func status(
            _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]
        ) throws
            -> Int
        {
            try Connection(port: port).request(method, path, body: body, headers: headers, port: port).status
        }
        // A page elsewhere (its own Host after DNS rebinding, its Origin,
        // or a form's content type) runs nothing.
        #expect(try status("GET", "/", headers: ["Host": "attacker.example:\(port)"]) == 403)
        #expect(try status("POST", "/run", body: body, headers: ["Origin": "http://attacker.example"]) == 403)
        #expect(try status("POST", "/run", body: body, headers: ["Content-Type": "text/plain"]) == 415)
        #expect(try status("POST", "/run", body: "{\"source\": 3}") == 400)
        #expect(try status("POST", "/run", body: "not json") == 400)
        #expect(try status("POST", "/run", body: Self.runBody("let a = 1", line: 0)) == 400)
        #expect(
            try status("POST", "/run", body: body, headers: ["Origin": "http://127.0.0.1:\(port)"]) == 200)
        // A body past the limit is refused before it is read.
        let huge = try Connection(port: port)
        huge.send(
            "POST /run HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n"
        )
        #expect(try huge.read().status == 413)
        // Headers past 16 KiB, a chunked body and a broken request line.
        let long = try Connection(port: port)
        long.send("GET / HTTP/1.1\r\nX-Long: " + String(repeating: "a", count: 20000) + "\r\n\r\n")
        #expect(try long.read().status == 431)
        let chunked = try Connection(port: port)
        chunked.send("POST /run HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(try chunked.read().status == 411)
        let broken = try Connection(port: port)
        broken.send("HELLO\r\n\r\n")
        #expect(try broken.read().status == 400)
        #expect(broken.isClosed())
        // A client that connects and leaves stops nothing.
        _ = try Connection(port: port)
        #expect(try status("GET", "/") == 200)
        #expect(server.isRunning)
    }

    @Test func aRunawayScenarioIsStoppedAndTheNextRequestIsAnswered() throws {
        let server = try Server(["--timeout", "1", "--max-steps", "1000000000000"])
        let connection = try Connection(port: server.port)
        let start = Date()
        let runaway = try connection.request(
            "POST", "/run", body: Self.runBody("var i = 0\nwhile true { i = i + 1 }\n"), port: server.port)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(runaway.status == 200)
        #expect(runaway.json["status"] as? Int == 1)
        #expect(
            (runaway.json["output"] as? String)?.hasPrefix(
                "scenario.kvo:2:1: error: the scenario ran longer than 1 s and was stopped (the playground's limit for a request)"
            ) == true, "\(runaway.body)")
        let next = try connection.request(
            "POST", "/run", body: Self.runBody(PlaygroundTests.firstStep), port: server.port)
        #expect(next.json["output"] as? String == "acct.balance → alice {kind = 1}\nacct.balance → alice {kind = 1}\n")
    }

    @Test func concurrentClientsAreAllAnsweredInTurn() throws {
        let server = try Server()
        let port = server.port
        let outputs = LockedList()
        DispatchQueue.concurrentPerform(iterations: 8) { client in
            for round in 0..<5 {
                let source = "print(\"client \(client) round \(round)\")\n"
                let text =
                    (try? Connection(port: port).request("POST", "/run", body: Self.runBody(source), port: port))
                    .flatMap { $0.json["output"] as? String } ?? "failed"
                outputs.append(text == "client \(client) round \(round)\n" ? "ok" : text)
            }
        }
        #expect(outputs.items.count == 40)
        #expect(outputs.items.allSatisfy { $0 == "ok" }, "\(outputs.items.filter { $0 != "ok" })")
    }

    @Test func aSwiftProgramIsRefusedWithoutTheFlagAndTheFlagWarns() throws {
        let server = try Server()
        let program = "import Foundation\nclass A: NSObject { @objc dynamic var x = 0 }\nprint(\"hi\")\n"
        let refused = try Connection(port: server.port).request(
            "POST", "/run", body: Self.runBody(program), port: server.port)
        #expect(refused.status == 403)
        #expect((refused.json["error"] as? String)?.contains("--allow-swift") == true)
        // With the flag, the examples offer Swift programs, and the server
        // said on standard error what the flag allows.
        let allowing = try Server(["--allow-swift"])
        let warning = String(decoding: allowing.errors.fileHandleForReading.availableData, as: UTF8.self)
        #expect(warning.contains("warning: --allow-swift: programs sent from the page run as your user"), "\(warning)")
        let examples = try Connection(port: allowing.port).request("GET", "/examples", port: allowing.port)
        #expect(examples.json["allowSwift"] as? Bool == true)
        let groups = examples.json["groups"] as? [[String: Any]] ?? []
        #expect(groups.last?["title"] as? String == "Swift programs")
    }

    @Test func withAllowSwiftAProgramIsCompiledAndRun() throws {
        let server = try Server(["--allow-swift"])
        let program = """
            import Foundation
            class Account: NSObject { @objc dynamic var balance = 0 }
            let account = Account()
            let token = account.observe(\\.balance, options: [.new]) { _, change in print("new", change.newValue ?? -1) }
            account.balance = 5
            let broken: Int = "text"

            """
        // The runtime's one-time build may come first: minutes, not seconds.
        let connection = try Connection(port: server.port, timeout: 900)
        let failed = try connection.request("POST", "/run", body: Self.runBody(program), port: server.port)
        #expect(failed.status == 200)
        #expect(failed.json["language"] as? String == "swift")
        #expect(failed.json["status"] as? Int == 2, "\(failed.body)")
        let diagnostics = failed.json["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.first?["line"] as? Int == 6, "\(failed.body)")
        let fixed = program.replacingOccurrences(of: "let broken: Int = \"text\"\n", with: "")
        let ran = try connection.request("POST", "/run", body: Self.runBody(fixed, line: 5), port: server.port)
        #expect(ran.json["status"] as? Int == 0, "\(ran.body)")
        #expect((ran.json["output"] as? String)?.hasSuffix("new 5\n") == true, "\(ran.body)")
        #expect((ran.json["explain"] as? String)?.contains("# ") == true, "\(ran.body)")
        #expect((ran.json["trace"] as? [String: Any])?["svg"] is String, "\(ran.body)")
        #expect(((ran.json["graph"] as? [String: Any])?["dot"] as? String)?.contains("digraph") == true, "\(ran.body)")
    }

    @Test func badOptionsAndAPortInUseAreSaid() throws {
        let server = try Server()
        let taken = try CLI.run(["serve", "--port", String(server.port)], timeout: 30)
        #expect(taken.status == 64, "\(taken)")
        #expect(taken.err.contains("cannot listen on 127.0.0.1 port \(server.port)"), "\(taken)")
        #expect(taken.err.contains("--port N"), "\(taken)")
        let badPort = try CLI.run(["serve", "--port", "70000"], timeout: 30)
        #expect(badPort.status == 64)
        #expect(badPort.err.contains("--port must be 0 to 65535, got 70000"), "\(badPort)")
        let badHost = try CLI.run(["serve", "--host", "not an address"], timeout: 30)
        #expect(badHost.status == 64)
        #expect(badHost.err.contains("cannot use --host not an address"), "\(badHost)")
    }
}

/// Strings appended from several threads.
final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ item: String) { lock.withLock { list.append(item) } }
    var items: [String] { lock.withLock { list } }
}
