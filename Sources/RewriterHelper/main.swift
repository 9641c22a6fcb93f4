#if canImport(Glibc)
import Glibc
#endif

/// kvo-run's rewriter helper (SPEC §11.0): compiled by kvo-run against the
/// toolchain's own swift-syntax, it answers `RewriterRequest`s read from
/// standard input with `RewriterResponse`s on standard output, one after
/// another, until standard input ends. kvo-run keeps one running for a REPL
/// session and starts one per program otherwise.
///
/// `kvo-rewriter FILE` (a contributor's aid) prints FILE rewritten.
enum RewriterHelper {
    static func answer(_ request: RewriterRequest) -> RewriterResponse {
        switch request {
        case .rewrite(let source, let fileName):
            return .rewritten(SwiftRewriter.rewrite(source, fileName: fileName))
        case .replProgram(let entries):
            return .replProgram(SwiftREPLProgram.rewrite(entries))
        case .isIncomplete(let text):
            return .isIncomplete(SwiftREPLProgram.isIncomplete(text))
        case .replacingDeclarations(let earlier, let entry):
            let result = SwiftREPLProgram.replacingDeclarations(in: earlier, by: entry)
            return .replacingDeclarations(entries: result.entries, replaced: result.replaced)
        }
    }

    static func writeAll(_ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    static func serve() -> Int32 {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            do {
                while let (payload, consumed) = try RewriterWire.unframe(buffer) {
                    buffer.removeFirst(consumed)
                    let response: RewriterResponse
                    do {
                        response = answer(try RewriterWire.decodeRequest(payload))
                    } catch {
                        response = .failed("the rewriter could not read kvo-run's request: \(error)")
                    }
                    guard writeAll(RewriterWire.encode(response)) else { return 1 }
                }
            } catch {
                _ = writeAll(RewriterWire.encode(.failed("the rewriter could not read kvo-run's request: \(error)")))
                return 1
            }
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return buffer.isEmpty ? 0 : 1 }
            buffer += chunk[..<count]
        }
    }

    static func printRewritten(_ path: String) -> Int32 {
        guard let file = fopen(path, "rb") else {
            fputs("kvo-rewriter: cannot read \(path): \(String(cString: strerror(errno)))\n", stderr)
            return 1
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        fclose(file)
        let result = SwiftRewriter.rewrite(String(decoding: bytes, as: UTF8.self), fileName: path)
        return writeAll(Array(result.source.utf8)) ? 0 : 1
    }
}

let arguments = CommandLine.arguments
exit(arguments.count == 2 ? RewriterHelper.printRewritten(arguments[1]) : RewriterHelper.serve())
