#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on POSIX sockets: one listening socket, one
/// thread per connection (at most `maxConnections`; past that a connection
/// is answered 503 and closed), keep-alive, a read timeout so an idle or
/// slow client cannot hold a thread for ever.
///
/// Hand-written rather than a library: the machine's light Swift HTTP
/// server (FlyingFox 0.27) imports all of Foundation, which kvo-run's
/// statically linked binary does not carry (it would add Foundation and
/// ICU's 47 MB archive to every build and link, for one subcommand), and
/// SwiftNIO-based servers cost minutes of build. The playground needs GET
/// and small JSON POSTs from one page: about 250 lines here.
final class HTTPServer: @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    let listener: Int32
    /// The port bound (the one asked for, or the system's choice for 0).
    let port: Int
    let maxConnections: Int
    let reader: HTTPRequestReader
    private let handler: Handler
    private let monitor = Monitor()
    private var connections = 0

    /// Seconds a connection may sit without sending a byte.
    static let readTimeout = 30

    enum Failure: Error, CustomStringConvertible {
        case address(String)
        case socket(String)
        var description: String {
            switch self {
            case .address(let text), .socket(let text): text
            }
        }
    }

    /// Binds `host`:`port` (a numeric IPv4 or IPv6 address, or `localhost`)
    /// and listens; nothing is served until `serve()`.
    init(host: String, port: Int, maxConnections: Int, maxBodyBytes: Int, handler: @escaping Handler) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        guard resolved == 0, let first = found else {
            throw Failure.address(
                "cannot use --host \(host): \(String(cString: gai_strerror(resolved))); give an address such as 127.0.0.1 or ::1"
            )
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure.socket("cannot make a socket: \(Self.errorText())") }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            // Read before close(), which may set errno again.
            let (why, code) = (Self.errorText(), errno)
            close(descriptor)
            throw Failure.socket(
                "cannot listen on \(host) port \(port): \(why)"
                    + (code == EADDRINUSE
                        ? "; another program has it: choose another with --port N (0: any free port)" : ""))
        }
        guard listen(descriptor, 128) == 0 else {
            let why = Self.errorText()
            close(descriptor)
            throw Failure.socket("cannot listen on \(host) port \(port): \(why)")
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        var bound = port
        if named == 0 {
            bound = withUnsafePointer(to: &address) { pointer in
                if Int32(pointer.pointee.ss_family) == AF_INET6 {
                    return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        Int(UInt16(bigEndian: $0.pointee.sin6_port))
                    }
                }
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            }
        }
        self.listener = descriptor
        self.port = bound
        self.maxConnections = maxConnections
        self.reader = HTTPRequestReader(maxBodyBytes: maxBodyBytes)
        self.handler = handler
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    /// Accepts connections for ever, each on a thread of its own.
    func serve() -> Never {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                // EMFILE and the like: wait a little rather than spin.
                if errno != EINTR { usleep(10_000) }
                continue
            }
            // Not inherited by a Swift program's child kvo-run (--allow-swift).
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            monitor.lock()
            let admitted = connections < maxConnections
            if admitted { connections += 1 }
            monitor.unlock()
            guard admitted else {
                Self.send(
                    HTTPResponse.error(503, "the server is busy (\(maxConnections) connections); try again")
                        .serialized(closing: true), to: client)
                close(client)
                continue
            }
            let started = Threads.start { [self] in
                handle(client)
                close(client)
                connectionEnded()
            }
            if !started {
                close(client)
                connectionEnded()
            }
        }
    }

    private func connectionEnded() {
        monitor.lock()
        connections -= 1
        monitor.unlock()
    }

    /// Reads requests and answers them until the client closes, asks to
    /// close, sends a malformed request or stays silent past the timeout.
    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: Self.readTimeout, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            switch reader.next(from: &buffer) {
            case .request(let request):
                let response = handler(request)
                guard Self.send(response.serialized(closing: request.closes), to: client), !request.closes else {
                    return
                }
            case .failure(let status, let message):
                _ = Self.send(HTTPResponse.error(status, message).serialized(closing: true), to: client)
                return
            case .incomplete:
                let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard count > 0 else {
                    if count < 0, errno == EAGAIN || errno == EWOULDBLOCK, !buffer.isEmpty {
                        _ = Self.send(
                            HTTPResponse.error(408, "the request was not sent in time").serialized(closing: true),
                            to: client)
                    }
                    return
                }
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }

    /// Writes all of `bytes`; false when the client went away.
    @discardableResult
    static func send(_ bytes: [UInt8], to client: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                // MSG_NOSIGNAL: a client that closed must not kill the server with SIGPIPE.
                let sent = Glibc.send(client, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }
}
