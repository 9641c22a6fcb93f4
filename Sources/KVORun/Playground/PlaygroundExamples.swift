import KVOOutput

/// The examples the playground offers one click away (`GET /examples`): the
/// tutorial's steps, read from its ```kvo blocks, and the example folders
/// `make install` copies (Apple's guide, objc.io, --explain, Swift programs).
/// Read once, when the server starts, from the installed share folder
/// (`share/kvo-run/tutorial.md`, `share/kvo-run/examples`) or, in a build
/// of the repository, from `docs/` and `scenarios/`.
public struct PlaygroundExamples: Equatable, Sendable {
    public struct Example: Equatable, Sendable {
        public var name: String
        public var title: String
        public var source: String
    }

    public struct Group: Equatable, Sendable {
        public var title: String
        public var examples: [Example]
    }

    public var groups: [Group]

    /// The folders `make install` fills, and the repository's in a build.
    public static func load(allowSwift: Bool) -> PlaygroundExamples {
        let installed = Files.executableFolder().map { $0 + "/../share/kvo-run" }
        if let installed, Files.isDirectory(installed + "/examples") {
            return load(tutorial: installed + "/tutorial.md", examples: installed + "/examples", allowSwift: allowSwift)
        }
        // Sources/KVORun/Playground/PlaygroundExamples.swift → the package.
        var root = #filePath
        for _ in 0..<4 {
            if let slash = root.lastIndex(of: "/") { root = String(root[..<slash]) }
        }
        return load(tutorial: root + "/docs/tutorial.md", examples: root + "/scenarios", allowSwift: allowSwift)
    }

    /// The folders of `examples` shown, in order, with their titles.
    static let folders: [(folder: String, title: String)] = [
        ("guide", "Apple's KVO guide"), ("objcio", "objc.io: KVC and KVO"), ("explain", "--explain"),
        ("swift", "Swift programs"),
    ]

    /// The Swift programs `make install` copies (its EXAMPLES list): the
    /// repository's folder holds a hundred goldens, most of them tests.
    static let swiftExamples: Set<String> = [
        "01_dynamic_or_not.swift", "02_observe_tokens.swift", "03_observe_value_override.swift",
        "10_labcolor_dependent_keys.swift", "27_apple_using_kvo_in_swift.swift", "45_explain_dependent_keys.swift",
    ]

    static func load(tutorial: String, examples: String, allowSwift: Bool) -> PlaygroundExamples {
        var groups: [Group] = []
        if let text = try? Files.read(tutorial, regularOnly: true) {
            let steps = tutorialSteps(text)
            if !steps.isEmpty { groups.append(Group(title: "Tutorial", examples: steps)) }
        }
        if let tour = try? Files.read(examples + "/tour.kvo", regularOnly: true) {
            groups.append(Group(title: "The tour", examples: [Example(name: "tour", title: "tour.kvo", source: tour)]))
        }
        for (folder, title) in folders where folder != "swift" || allowSwift {
            let suffix = folder == "swift" ? ".swift" : ".kvo"
            let files = Files.find(under: examples + "/" + folder, suffix: suffix).filter {
                folder != "swift" || swiftExamples.contains(Files.baseName($0))
            }
            let found = files.compactMap { path -> Example? in
                guard let source = try? Files.read(path, regularOnly: true) else { return nil }
                let name = Files.baseName(path)
                return Example(name: folder + "/" + name, title: Self.title(ofFile: name), source: source)
            }
            if !found.isEmpty { groups.append(Group(title: title, examples: found)) }
        }
        return PlaygroundExamples(groups: groups)
    }

    /// `1. Registering contexts` for `01_registering_contexts.kvo`: the
    /// file's number and words, as the menu shows them.
    static func title(ofFile name: String) -> String {
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        var words = stem.split(separator: "_").map(String.init)
        var number: Int?
        if let first = words.first, let value = Int(first) {
            number = value
            words.removeFirst()
        }
        var text = words.joined(separator: " ")
        if let first = text.first { text = first.uppercased() + text.dropFirst() }
        return number.map { "\($0). \(text)" } ?? text
    }

    /// Each ```kvo block of the tutorial, titled by its section (`1. A
    /// first observer`; a second block of one section gets ` (2)`).
    static func tutorialSteps(_ markdown: String) -> [Example] {
        var steps: [Example] = []
        var section = "Tutorial"
        var blocksInSection = 0
        var block: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if var lines = block {
                if line.hasPrefix("```") {
                    blocksInSection += 1
                    let title = blocksInSection == 1 ? section : "\(section) (\(blocksInSection))"
                    steps.append(
                        Example(
                            name: "tutorial/\(steps.count + 1)", title: title,
                            source: lines.joined(separator: "\n") + "\n"))
                    block = nil
                } else {
                    lines.append(line)
                    block = lines
                }
            } else if line.hasPrefix("## ") {
                section = String(line.dropFirst(3)).replacingBackticks()
                blocksInSection = 0
            } else if line == "```kvo" {
                block = []
            }
        }
        return steps
    }

    /// `{"allowSwift": …, "groups": [{"title", "examples": [{"name", "title", "source"}]}]}`.
    public func json(allowSwift: Bool) -> String {
        let groups = groups.map { group in
            JSONFormat.object([
                ("title", JSONFormat.string(group.title)),
                (
                    "examples",
                    "["
                        + group.examples.map {
                            JSONFormat.object([
                                ("name", JSONFormat.string($0.name)), ("title", JSONFormat.string($0.title)),
                                ("source", JSONFormat.string($0.source)),
                            ])
                        }.joined(separator: ",") + "]"
                ),
            ])
        }
        return JSONFormat.object([
            ("allowSwift", allowSwift ? "true" : "false"), ("groups", "[" + groups.joined(separator: ",") + "]"),
        ])
    }
}

extension String {
    /// `4. Reacting: observeValue` for a heading's `` `observeValue` ``.
    fileprivate func replacingBackticks() -> String { String(filter { $0 != "`" }) }
}
