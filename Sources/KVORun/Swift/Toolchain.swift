import KVOScript

#if canImport(Glibc)
import Glibc
#endif

/// The Swift toolchain a program is compiled with (SPEC §11.0): finding its
/// `swiftc`, its version (part of every cache key), its folder, whether it
/// has `ld.lld`, and its own swift-syntax (`usr/lib/swift/host`), which the
/// rewriter helper is compiled against.
enum Toolchain {
    /// `--swiftc PATH`, else `KVO_SWIFTC`, else `swiftc` on PATH.
    static func find(_ named: String?) throws -> String {
        let chosen = named ?? getenv("KVO_SWIFTC").map { String(cString: $0) }
        if let chosen, !chosen.isEmpty {
            if chosen.contains("/") {
                // A folder can be "executed" (searched) too: named as such.
                if Files.isDirectory(chosen) {
                    let inside = ["/usr/bin/swiftc", "/bin/swiftc", "/swiftc"].map { chosen + $0 }
                        .first { access($0, X_OK) == 0 && !Files.isDirectory($0) }
                    throw SwiftProgram.Failure(
                        message:
                            "--swiftc (or KVO_SWIFTC) names the folder '\(chosen)', not a compiler; name the swiftc in it"
                            + (inside.map { ": --swiftc \($0)" } ?? " (a toolchain's usr/bin/swiftc)"),
                        status: ExitStatus.scriptErrors)
                }
                if access(chosen, X_OK) == 0 { return chosen }
            } else if let found = ExternalTool.find(chosen) {
                return found
            }
            throw SwiftProgram.Failure(
                message:
                    "this is a Swift program, and the Swift compiler '\(chosen)' (named by --swiftc or KVO_SWIFTC) cannot be run; name an installed swiftc",
                status: ExitStatus.scriptErrors)
        }
        if let found = ExternalTool.find("swiftc") { return found }
        throw SwiftProgram.Failure(
            message:
                "this is a Swift program (it imports Foundation): running it needs the Swift compiler 'swiftc', which is not on PATH; install a Swift toolchain (swift.org/install) or name one with --swiftc PATH or KVO_SWIFTC=PATH (scenarios without 'import Foundation' never need it)",
            status: ExitStatus.scriptErrors)
    }

    /// `swiftc --version`, part of the runtime's cache key. Asking costs a
    /// process (half a second on a loaded machine), so the answer is kept,
    /// keyed by the compiler's path, size and modification time: a new
    /// toolchain at the same path is asked again. A compiler still
    /// answering when the run's `deadline` passes is stopped, and nothing
    /// is kept.
    static func version(_ swiftc: String, cache: String, deadline: Deadline = .none) throws -> String {
        var info = stat()
        var key = FNV1a()
        key.add(swiftc)
        if stat(swiftc, &info) == 0 {
            key.add(String(info.st_size))
            key.add(String(info.st_mtim.tv_sec) + "." + String(info.st_mtim.tv_nsec))
        }
        let remembered = cache + "/toolchains/" + key.hex
        if let known = try? Files.read(remembered), !known.isEmpty { return known }
        let path = SwiftProgram.temporaryPath("kvo-run-version")
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { return swiftc }
        let ending = ChildProcess.run(swiftc, ["--version"], output: descriptor, deadline: deadline, ownGroup: true)
        close(descriptor)
        if ending == .timedOut {
            throw SwiftProgram.Failure(
                message: deadline.stopped("asking the Swift compiler its version (\(swiftc) --version)"),
                status: ExitStatus.failure)
        }
        let version = swiftc + "\n" + ((try? Files.read(path)) ?? "")
        if (try? SwiftProgram.makeDirectories(cache + "/toolchains")) != nil {
            try? Files.write(version, to: remembered)
        }
        return version
    }

    /// The folder of the toolchain's programs: where `swiftc` really is.
    static func bin(_ swiftc: String) -> String? {
        guard let resolved = realpath(swiftc, nil) else { return nil }
        defer { free(resolved) }
        let path = String(cString: resolved)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }

    /// Whether `ld.lld` sits beside `swiftc` (or the file it links to), where
    /// the toolchain's clang looks for it.
    static func hasLLD(_ swiftc: String) -> Bool {
        var folders = [swiftc]
        if let resolved = realpath(swiftc, nil) {
            folders.append(String(cString: resolved))
            free(resolved)
        }
        return folders.contains { path in
            guard let slash = path.lastIndex(of: "/") else { return false }
            return access(String(path[..<slash]) + "/ld.lld", X_OK) == 0
        }
    }

    /// The toolchain's own swift-syntax (`usr/lib/swift/host`, beside its
    /// `bin`), checked to hold what the helper needs.
    static func hostModules(swiftc: String) throws -> String {
        let bin = bin(swiftc) ?? "."
        let host = bin + "/../lib/swift/host"
        let needed = RuntimeCache.hostModuleNames.flatMap { ["\($0).swiftmodule", "lib\($0).so"] }
        let missing = needed.filter { !Files.exists(host + "/" + $0) }
        guard missing.isEmpty else {
            throw SwiftProgram.Failure(
                message:
                    "kvo-run reads Swift programs with the toolchain's own swift-syntax, and the toolchain of \(swiftc) has no \(missing.joined(separator: ", ")) in \(Files.shown(host)); install a Swift toolchain from swift.org (5.9 or later ships them) or name one with --swiftc PATH or KVO_SWIFTC=PATH (scenarios without 'import Foundation' never need it)",
                status: ExitStatus.scriptErrors)
        }
        return host
    }
}
