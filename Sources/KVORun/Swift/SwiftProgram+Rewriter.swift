import KVOScript

#if canImport(Glibc)
import Glibc
#endif

extension SwiftProgram {
    // MARK: The rewriter helper

    /// The folders of the rewriter helper's sources, beside the runtime's:
    /// the messages both sides share, then the helper itself.
    static let rewriterModules = ["RewriterProtocol", "RewriterHelper"]

    /// The helper's file name in the runtime's folder.
    static let rewriterName = "kvo-rewriter"

    /// The swift-syntax modules the helper is compiled against.
    static let hostModuleNames = ["SwiftSyntax", "SwiftParser"]

    /// `swiftc`'s arguments for the helper, compiled from `files` into
    /// `output`. Unoptimised: it builds in half the time of `-O` and reads a
    /// program in a few milliseconds either way (the parser is the host
    /// library's, optimised). The host modules are built from their
    /// interfaces into a module cache kept in kvo-run's cache, so a second
    /// toolchain build (a changed runtime) takes seconds.
    static func rewriterArguments(host: String, files: [String], moduleCache: String, output: String) -> [String] {
        ["-Onone", "-module-name", "KVORewriter", "-module-cache-path", moduleCache, "-I", host, "-L", host]
            + hostModuleNames.map { "-l" + $0 } + ["-Xlinker", "-rpath", "-Xlinker", host] + files + ["-o", output]
    }
}
