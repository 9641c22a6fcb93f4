import _KVOTestSupport
import Foundation
import KVORun
import Testing

/// Source comments and the documentation cite sections as `docs/PAGE.md#ANCHOR`
/// (or `PAGE.md#ANCHOR` between pages): every one must name a page that exists
/// and an anchor it declares (`<a id="ANCHOR"></a>`), so a renamed section cannot
/// leave dangling references behind.
@Suite struct DocAnchorTests {
    /// Every `<a id="…">` of each page under docs/, by file name.
    static func anchors() -> [String: Set<String>] {
        let root = packageRoot().path
        var result: [String: Set<String>] = [:]
        for path in Files.find(under: root + "/docs", suffix: ".md") {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let ids = text.matches(of: /<a id="([A-Za-z0-9_-]+)"><\/a>/).map { String($0.output.1) }
            result[Files.baseName(path)] = Set(ids)
        }
        return result
    }

    /// `(file, "page.md#anchor")` for each citation in the sources, tests and docs.
    static func citations() -> [(file: String, target: String)] {
        let root = packageRoot().path
        let files =
            ["Sources", "Tests", "Fuzz"].flatMap { Files.find(under: root + "/" + $0, suffix: ".swift") }
            + Files.find(under: root + "/docs", suffix: ".md") + [root + "/README.md"]
        var found: [(String, String)] = []
        for path in files {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            for match in text.matches(of: /(?:docs\/|\()([a-z-]+\.md#[A-Za-z0-9_-]+)/) {
                found.append((String(path.dropFirst(root.count + 1)), String(match.output.1)))
            }
        }
        return found
    }

    @Test func everyCitedSectionExists() {
        let anchors = Self.anchors()
        let citations = Self.citations()
        #expect(!citations.isEmpty)
        for (file, target) in citations {
            let parts = target.split(separator: "#", maxSplits: 1).map(String.init)
            guard parts.count == 2, let ids = anchors[parts[0]] else {
                Issue.record("\(file) cites \(target): there is no docs/\(parts.first ?? target)")
                continue
            }
            #expect(ids.contains(parts[1]), "\(file) cites \(target), which declares no anchor '\(parts[1])'")
        }
    }
}
