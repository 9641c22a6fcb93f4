#if canImport(Glibc)
import Glibc
#endif

/// How a program is compiled against a runtime without the `swiftc` driver
/// (SPEC §11.0: a new program compiles in under a second). The driver is a
/// process of its own that plans three jobs and runs them: the frontend
/// (`swift-frontend -frontend -c`), `swift-autolink-extract` (the libraries
/// the object's imports name) and the link (`clang`, which runs the linker).
/// Planning costs about 40 ms of CPU, and `clang` another 10 ms on top of
/// the linker it starts. So the driver is asked once per runtime for its
/// plan (`swiftc … -###`), which is kept in the runtime's folder with the
/// per-program paths as placeholders. A program whose only import is the
/// runtime (what `import Foundation` becomes) is linked for the runtime's
/// program host, or against libKVORuntime.so alone where there is no host
/// (RuntimeCache.runtimeLibrary), needing no autolink step: after the
/// first such program the linker's own command for that link (`clang …
/// -###`) is kept too, and such a program is compiled by two processes, the
/// frontend and the linker. Anything unexpected in a plan (a response file,
/// another number of jobs) keeps the driver.
struct CompileJobs: Equatable {
    /// `swift-frontend -frontend -c … -primary-file SOURCE … -o OBJECT`.
    var frontend: [String]
    /// `swift-autolink-extract OBJECT -o AUTOLINK`.
    var autolink: [String]
    /// `clang … OBJECT @AUTOLINK … -o OUTPUT`: Swift's shared libraries.
    var link: [String]
    /// `clang … -shared swiftrt.o OBJECT … -o OUTPUT` for the program host,
    /// or `clang … swiftrt.o OBJECT -lKVORuntime … -o OUTPUT`, for a program
    /// that imports only the runtime, when the runtime has either.
    var runtimeLink: [String]?
    /// The linker's own command for that link: `ld.lld … OBJECT … -o OUTPUT`.
    var directLink: [String]?

    static let source = "@KVO_SOURCE@"
    static let object = "@KVO_OBJECT@"
    static let autolinkFile = "@KVO_AUTOLINK@"
    static let output = "@KVO_OUTPUT@"
    static let fileName = "compile-jobs"

    /// The jobs for `source` compiled into `output`, with the object and
    /// autolink files in `folder`.
    func frontendJob(source: String, folder: String) -> [String] {
        frontend.map { substitute($0, source: source, folder: folder, output: "") }
    }

    func autolinkJob(folder: String) -> [String] {
        autolink.map { substitute($0, source: "", folder: folder, output: "") }
    }

    func linkJob(folder: String, output: String) -> [String] {
        link.map { substitute($0, source: "", folder: folder, output: output) }
    }

    func runtimeLinkJob(folder: String, output: String) -> [String]? {
        runtimeLink?.map { substitute($0, source: "", folder: folder, output: output) }
    }

    func directLinkJob(folder: String, output: String) -> [String]? {
        directLink?.map { substitute($0, source: "", folder: folder, output: output) }
    }

    private func substitute(_ argument: String, source: String, folder: String, output: String) -> String {
        switch argument {
        case Self.source: return source
        case Self.object: return folder + "/main.o"
        case Self.autolinkFile: return folder + "/main.autolink"
        case "@" + Self.autolinkFile: return "@" + folder + "/main.autolink"
        case Self.output: return output
        default: return argument
        }
    }

    // MARK: Reading the driver's plan

    /// The driver's plan printed by `swiftc … SOURCE -o OUTPUT -###`, with
    /// `sourcePath` and `outputPath` (and the object and autolink files the
    /// driver named) replaced by placeholders; nil unless it is the three
    /// jobs this type knows. With `runtime`, the folder holding
    /// libKVORuntime.so, also the link against it alone, made from the
    /// driver's link: its linker driver, Swift's start-up object
    /// (`swiftrt.o`) and target, then the object and the runtime, and the C
    /// libraries a program may call (the library depends on them, but a
    /// program's own calls must name them). `hosted`: the runtime's folder
    /// holds the program host, and that link makes the shared object the
    /// host loads instead (`ProgramHost`).
    static func plan(
        _ printed: String, sourcePath: String, outputPath: String, runtime: String? = nil, hosted: Bool = false
    )
        -> CompileJobs?
    {
        let lines = printed.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        guard lines.count == 3 else { return nil }
        let jobs = lines.compactMap { ShellWords.split($0) }
        guard jobs.count == 3, jobs.allSatisfy({ $0.count > 1 }) else { return nil }
        var frontend = jobs[0], autolink = jobs[1], link = jobs[2]
        guard Files.baseName(frontend[0]) == "swift-frontend", frontend.count > 3, frontend[1] == "-frontend",
            frontend[2] == "-c", Files.baseName(autolink[0]) == "swift-autolink-extract"
        else { return nil }
        // The object: the frontend's `-o`; the autolink file: the extractor's.
        guard let objectAt = frontend.lastIndex(of: "-o"), objectAt + 1 < frontend.count,
            let autolinkAt = autolink.lastIndex(of: "-o"), autolinkAt + 1 < autolink.count
        else { return nil }
        let objectPath = frontend[objectAt + 1]
        let autolinkPath = autolink[autolinkAt + 1]
        // A response file would hold arguments this plan cannot see.
        let known: Set<String> = [sourcePath, outputPath, objectPath, autolinkPath, "@" + autolinkPath]
        for job in [frontend, autolink, link] where job.contains(where: { $0.hasPrefix("@") && !known.contains($0) }) {
            return nil
        }
        func placeholders(_ job: inout [String]) {
            job = job.map { argument in
                switch argument {
                case sourcePath: return source
                case outputPath: return output
                case objectPath: return object
                case autolinkPath: return autolinkFile
                case "@" + autolinkPath: return "@" + autolinkFile
                default: return argument
                }
            }
        }
        placeholders(&frontend)
        placeholders(&autolink)
        placeholders(&link)
        guard frontend.filter({ $0 == source }).count == 1, frontend.contains(object),
            autolink.contains(object), autolink.contains(autolinkFile),
            link.contains(object), link.contains("@" + autolinkFile), link.contains(output)
        else { return nil }
        var runtimeLink: [String]?
        if hosted, let swiftrt = link.first(where: { $0.hasSuffix("/swiftrt.o") }) {
            runtimeLink = ProgramHost.programLink(
                clang: link[0], swiftrt: swiftrt, object: object, target: link.filter { $0.hasPrefix("--target=") },
                output: output)
        } else if let runtime, let swiftrt = link.first(where: { $0.hasSuffix("/swiftrt.o") }) {
            runtimeLink =
                [link[0], "-fuse-ld=lld", "-pie", "-Xlinker", "--build-id", swiftrt, object]
                + link.filter { $0.hasPrefix("--target=") } + [
                    "-L", runtime, "-lKVORuntime", "-lm", "-ldl", "-lpthread", "-lutil", "-Xlinker", "-rpath",
                    "-Xlinker", runtime, "-o", output,
                ]
        }
        return CompileJobs(
            frontend: frontend, autolink: autolink, link: link, runtimeLink: runtimeLink, directLink: nil)
    }

    /// The linker's command printed by `clang … -###` for the link job of
    /// `folder` (whose autolink file clang writes out in the command), with
    /// the object and output as placeholders; nil unless it is one command
    /// that names both once.
    static func linkerCommand(_ printed: String, folder: String, outputPath: String) -> [String]? {
        // clang -### prints its version and settings, then each command it
        // would run on a line of its own, starting with a space.
        let commands = printed.split(separator: "\n").filter { $0.hasPrefix(" \"") }
        guard commands.count == 1, let words = ShellWords.split(String(commands[0])), words.count > 2 else {
            return nil
        }
        let objectPath = folder + "/main.o"
        guard words.filter({ $0 == objectPath }).count == 1, words.filter({ $0 == outputPath }).count == 1,
            !words.contains(where: { $0.hasPrefix("@") })
        else { return nil }
        return words.map { $0 == objectPath ? object : $0 == outputPath ? output : $0 }
    }

    // MARK: Storing

    /// One job per line, its arguments separated by NUL (which no argument
    /// holds); `-` for a job there is not.
    var serialized: String {
        [frontend, autolink, link, runtimeLink ?? ["-"], directLink ?? ["-"]]
            .map { $0.joined(separator: "\u{0}") }.joined(separator: "\n") + "\n"
    }

    init(frontend: [String], autolink: [String], link: [String], runtimeLink: [String]?, directLink: [String]?) {
        self.frontend = frontend
        self.autolink = autolink
        self.link = link
        self.runtimeLink = runtimeLink
        self.directLink = directLink
    }

    init?(serialized text: String) {
        // By bytes: split as Characters, the plan cost 1.9 million
        // instructions of every new program's compile.
        let jobs = text.utf8.split(separator: UInt8(ascii: "\n")).map { line in
            line.split(separator: 0, omittingEmptySubsequences: false).map { String(Substring($0)) }
        }
        guard jobs.count == 5, jobs[0...2].allSatisfy({ $0.count > 1 }) else { return nil }
        func optional(_ job: [String]) -> [String]? { job == ["-"] ? nil : job }
        self.init(
            frontend: jobs[0], autolink: jobs[1], link: jobs[2], runtimeLink: optional(jobs[3]),
            directLink: optional(jobs[4]))
    }
}
