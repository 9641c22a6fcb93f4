import KVOCore
import KVOOutput

#if canImport(Glibc)
import Glibc
#endif

/// The program host: an executable in the runtime's folder holding the
/// runtime, Swift's standard library and Foundation, linked at a fixed
/// address (`-no-pie`), into which a compiled program, a small shared
/// object, is loaded and run.
///
/// Why: a program linked against libKVORuntime.so, a shared library at a
/// random address, starts by applying its 78,000 relative relocations,
/// which write (and so copy) a few hundred of its pages in every process:
/// 540 page faults and 3.2 ms for `startup.swift`. The host has no
/// relocations of its own, and the program only its few hundred symbol
/// references: 341 faults and 2.5 ms (Benchmarks/README.md, "Issue 43, the
/// program host"). Linking each program statically instead (2.0 ms) would
/// make each of them 70 MB. In the host, the Swift runtime's thread-local
/// access set is reached from an executable (local-exec TLS): a compiled
/// B1 set makes no `__tls_get_addr` calls (about 230 instructions less).
///
/// The program is compiled as before (`swift file.swift`'s flags: the same
/// object); only its link differs (`-shared`), and its `main` is called by
/// the host's. It is run as the host with the program's path as its
/// `argv[0]` (what `CommandLine.arguments[0]` said before) and in
/// `libraryVariable`, which the host removes before the program starts.
enum ProgramHost {
    /// The host's file name in the runtime's folder.
    static let name = "kvo-program-host"

    /// The host of the runtime in `runtime` (its folder), built or not.
    static func path(in runtime: String) -> String { runtime + "/" + name }

    /// The environment variable naming the program the host loads.
    static let libraryVariable = "KVO_PROGRAM_LIBRARY"

    /// The host's `main`, in C: it needs none of Swift, and C's `main`
    /// leaves the program's own top-level code the only Swift `main`. The
    /// program's `main` is found in the program alone (`dlsym` on its
    /// handle): the host's, exported with everything else, is not it.
    static let mainSource = """
        #include <dlfcn.h>
        #include <stdio.h>
        #include <stdlib.h>

        int main(int argc, char **argv) {
            const char *path = getenv("\(libraryVariable)");
            if (path == NULL) {
                fputs("\(name): kvo-run runs compiled Swift programs in this host; run the program with kvo-run\\n", stderr);
                return 70;
            }
            /* Said at the program's first line, as kvo-run says a program
               that cannot start: not the user's to mend, but to report. */
            const char *source = getenv("\(ProgramChannel.Settings.Name.sourceName)");
            if (source == NULL) source = "main.swift";
            void *program = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            int (*entry)(int, char **) = program == NULL ? NULL : (int (*)(int, char **))dlsym(program, "main");
            if (entry == NULL) {
                fprintf(stderr, "%s:1:1: error: the compiled program does not load in kvo-run's program host (%s); "
                    "this is a bug in kvo-run: please report it with the program and 'kvo-run --version'\\n",
                    source, program == NULL ? dlerror() : "it has no main");
                return 1;
            }
            unsetenv("\(libraryVariable)");
            return entry(argc, argv);
        }

        """

    /// The flags the host is linked with beyond the runtime library's
    /// (`RuntimeCache.runtimeLibrary`): at a fixed address, and every symbol
    /// exported for the programs it loads.
    static let linkFlags = ["-no-pie", "-Wl,--export-dynamic"]

    /// Links the host into `building` from the runtime's objects and
    /// `libraries` (Swift's static ones, whole), with `startFlags` (the C++
    /// library, as the runtime library links it); whether it did. Nothing
    /// is left there if a step fails: programs then link against
    /// libKVORuntime.so (`RuntimeCache.runtimeLibrary`).
    static func build(
        clang: String, swiftrt: String, objects: [String], libraries: [String], startFlags: [String],
        building: String, log: String, bound: Deadline
    ) -> Bool {
        let source = building + "/kvo-program-host.c"
        let object = building + "/kvo-program-host.o"
        defer {
            unlink(source)
            unlink(object)
        }
        guard (try? SwiftProgram.writeFile(mainSource, to: source)) != nil,
            ProgramCompiler.runStep([clang, "-O2", "-c", source, "-o", object], log: log, deadline: bound)
                == .exited(0)
        else { return false }
        let arguments =
            [clang, "-fuse-ld=lld"] + linkFlags + ["-o", path(in: building), swiftrt, object, "-Wl,--whole-archive"]
            + objects + libraries + [
                "-Wl,--no-whole-archive", "-lm", "-ldl", "-lpthread", "-lutil", "-Wl,--allow-multiple-definition",
                "-Wl,--build-id",
            ] + startFlags
        guard ProgramCompiler.runStep(arguments, log: log, deadline: bound) == .exited(0) else {
            unlink(path(in: building))
            return false
        }
        return true
    }

    /// The link of a program for the host: a shared object of the program's
    /// object, with Swift's registration of its metadata (`swiftrt.o`). Its
    /// references to the runtime are bound when the host loads it.
    static func programLink(
        clang: String, swiftrt: String, object: String, target: [String], output: String
    )
        -> [String]
    {
        [clang, "-fuse-ld=lld", "-shared", "-Xlinker", "--build-id", swiftrt, object] + target + ["-o", output]
    }
}
