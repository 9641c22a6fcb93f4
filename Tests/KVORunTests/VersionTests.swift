import _KVOTestSupport
import Foundation
import KVORun
import Testing

/// `kvo-run --version`: the version and the git revision of the build, or
/// "unknown revision" when it was built outside a git checkout.
@Suite struct VersionTests {
    @Test func theVersionNamesTheRevisionOrSaysItIsUnknown() {
        #expect(Version.full.hasPrefix("kvo-run \(Version.number) ("))
        #expect(Version.full.hasSuffix(")"))
        #expect(!Version.revision.isEmpty)
        if Version.revision == "unknown revision" {
            #expect(Version.full == "kvo-run \(Version.number) (unknown revision)")
        } else {
            #expect(Version.full == "kvo-run \(Version.number) (git \(Version.revision))")
            #expect(Version.revision.allSatisfy { $0.isHexDigit || "-dirty".contains($0) })
        }
    }

    @Test func versionOptionPrintsIt() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0, "\(result)")
        // The binary may have been built at another revision than this test
        // (a commit in between): only the shape is compared.
        #expect(result.out.hasPrefix("kvo-run \(Version.number) ("), "\(result)")
        #expect(result.out.hasSuffix(")\n"), "\(result)")
        #expect(result.out.contains("(git ") || result.out.contains("(unknown revision)"), "\(result)")
    }
}
