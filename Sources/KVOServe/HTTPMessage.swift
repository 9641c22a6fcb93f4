/// An HTTP/1.1 request as `kvo-run serve` reads it: the method, the path
/// (without its query), the headers it looks at, and the body.
struct HTTPRequest: Equatable {
    var method: String
    var path: String
    /// Header names lowercased; a repeated header keeps its last value.
    var headers: [String: String]
    var body: [UInt8]
    /// HTTP/1.0 without `Connection: keep-alive`, or `Connection: close`.
    var closes: Bool

    func header(_ name: String) -> String? { headers[name] }
}

/// An answer: a status, a content type and the bytes.
struct HTTPResponse: Equatable {
    var status: Int
    var contentType: String
    var body: [UInt8]

    init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    init(status: Int, json: String) {
        self.init(status: status, contentType: "application/json; charset=utf-8", body: Array(json.utf8))
    }

    /// `{"error": message}`.
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, json: "{\"error\":" + jsonString(message) + "}")
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// The bytes on the wire. The page and its answers are never cached
    /// (a new kvo-run serves a new page), never sniffed as another type,
    /// and the page runs only its own script (`script-src 'self'`); the
    /// SVGs it shows inline carry style attributes.
    func serialized(closing: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        head += "Content-Type: \(contentType)\r\n"
        head += "Content-Length: \(body.count)\r\n"
        head += "Cache-Control: no-store\r\n"
        head += "X-Content-Type-Options: nosniff\r\n"
        head += "Referrer-Policy: no-referrer\r\n"
        head +=
            "Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'\r\n"
        if closing { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }
}

/// A JSON string literal: the few escapes RFC 8259 requires, and every
/// control character as `\u00XX`. (KVOOutput's `JSONFormat.string` does the
/// same; this module keeps its own because it runs on the connection
/// threads, and the interpreter's modules are kept to the runner thread:
/// see `RunQueue`.)
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// Reads requests from a connection's bytes: the request line, the headers
/// (at most `maxHeaderBytes`) and a body of `Content-Length` bytes (at most
/// `maxBodyBytes`). Chunked bodies are refused (411): the page never sends
/// one, and no client of this server needs it.
struct HTTPRequestReader {
    static let maxHeaderBytes = 16 << 10
    let maxBodyBytes: Int

    enum Outcome: Equatable {
        case request(HTTPRequest)
        /// More bytes are needed.
        case incomplete
        /// A malformed request: answered with this status, then closed.
        case failure(status: Int, message: String)
    }

    /// Parses one request from the front of `buffer`, removing its bytes.
    func next(from buffer: inout [UInt8]) -> Outcome {
        guard let end = headerEnd(buffer) else {
            return buffer.count > Self.maxHeaderBytes
                ? .failure(status: 431, message: "the request's headers are larger than 16 KiB") : .incomplete
        }
        guard end <= Self.maxHeaderBytes else {
            return .failure(status: 431, message: "the request's headers are larger than 16 KiB")
        }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { return .failure(status: 400, message: "an empty request") }
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            return .failure(status: 400, message: "a request line must read 'METHOD PATH HTTP/1.1'")
        }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(status: 400, message: "a header line without a colon")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers[name] = String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        if headers["transfer-encoding"] != nil {
            return .failure(status: 411, message: "send the body with a Content-Length, not chunked")
        }
        var length = 0
        if let text = headers["content-length"] {
            guard let value = Int(text), value >= 0 else {
                return .failure(status: 400, message: "Content-Length must be a number of bytes")
            }
            guard value <= maxBodyBytes else {
                return .failure(
                    status: 413, message: "the request's body is larger than the limit of \(maxBodyBytes >> 10) KiB")
            }
            length = value
        }
        let bodyStart = end + 4
        guard buffer.count >= bodyStart + length else { return .incomplete }
        let version = requestLine[2]
        let connection = headers["connection"]?.lowercased() ?? ""
        let closes = connection.contains("close") || (version == "HTTP/1.0" && !connection.contains("keep-alive"))
        let target = requestLine[1]
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? target
        let request = HTTPRequest(
            method: String(requestLine[0]), path: String(path), headers: headers,
            body: Array(buffer[bodyStart..<(bodyStart + length)]), closes: closes)
        buffer.removeFirst(bodyStart + length)
        return .request(request)
    }

    /// Where `\r\n\r\n` starts, if the buffer has it.
    private func headerEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        var index = 0
        while index + 3 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }
}
