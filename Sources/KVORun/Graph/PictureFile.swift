#if canImport(Glibc)
import Glibc
#endif
import KVOCore
import KVOOutput
import KVOScript

/// Writes a picture: `-o OUT` or standard output.
enum PictureFile {
    static func write(_ text: String, to path: String?) -> Int32 {
        guard let path else {
            Runner.stdout(text)
            guard Runner.outputFailure == nil else {
                Runner.reportOutputFailure()
                return ExitStatus.outputFailed
            }
            return ExitStatus.success
        }
        do {
            try Files.write(text, to: path)
            return ExitStatus.success
        } catch {
            Runner.stderr("kvo-run: \(error)\n")
            return ExitStatus.failure
        }
    }
}
