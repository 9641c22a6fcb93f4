import RewriterProtocol

@testable import KVORun

/// The rewriter helper as the tests reach it: built with the runtime by the
/// first test that needs it (RuntimeCache.runtimeDirectory), then asked
/// through kvo-run's own client, so the tests check what kvo-run runs.
enum TestRewriter {
    static func rewriter() throws -> Rewriter {
        let swiftc = try Toolchain.find(nil)
        let runtime = try RuntimeCache.runtimeDirectory(swiftc: swiftc, cache: RuntimeCache.cacheRoot())
        return Rewriter(executable: runtime + "/" + RuntimeCache.rewriterName)
    }

    static func rewrite(_ source: String, fileName: String) throws -> RewrittenProgram {
        try rewriter().rewrite(source, fileName: fileName, deadline: .none)
    }

    static func replProgram(_ entries: [REPLEntry]) throws -> REPLProgram {
        try rewriter().replProgram(entries, deadline: .none)
    }

    static func isIncomplete(_ text: String) throws -> Bool {
        try rewriter().isIncomplete(text, deadline: .none)
    }

    static func replacingDeclarations(
        in earlier: [REPLEntry], by entry: String
    ) throws -> (
        entries: [REPLEntry], replaced: [String]
    ) {
        try rewriter().replacingDeclarations(in: earlier, by: entry, deadline: .none)
    }
}
