import KVORun

/// The page's three files (HTML, CSS, JavaScript: no build step, nothing
/// fetched from elsewhere), read once at start-up from the installed share
/// folder (`share/kvo-run/serve`, `make install`) or, in a build of the
/// repository, from Sources/KVOServe/Page.
struct PageFiles: Sendable {
    static let names = ["index.html", "page.css", "page.js"]
    private let files: [String: [UInt8]]

    struct Missing: Error, CustomStringConvertible {
        var folders: [String]
        var description: String {
            "cannot find the playground's page (index.html, page.css, page.js) in "
                + folders.joined(separator: " or ") + "; reinstall kvo-run (make install)"
        }
    }

    static func load() throws -> PageFiles {
        var folders: [String] = []
        if let bin = Files.executableFolder() { folders.append(bin + "/../share/kvo-run/serve") }
        // Sources/KVOServe/PageFiles.swift → Sources/KVOServe/Page
        var here = #filePath
        if let slash = here.lastIndex(of: "/") { here = String(here[..<slash]) }
        folders.append(here + "/Page")
        for folder in folders {
            var files: [String: [UInt8]] = [:]
            for name in names {
                guard let text = try? Files.read(folder + "/" + name, regularOnly: true) else { break }
                files[name] = Array(text.utf8)
            }
            if files.count == names.count { return PageFiles(files: files) }
        }
        throw Missing(folders: folders)
    }

    func response(for name: String) -> HTTPResponse {
        guard let body = files[name] else { return .error(404, "nothing at /\(name)") }
        let type =
            name.hasSuffix(".html")
            ? "text/html; charset=utf-8"
            : name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
        return HTTPResponse(status: 200, contentType: type, body: body)
    }
}
