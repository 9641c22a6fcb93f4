import SwiftParser
import SwiftSyntax

/// Turns a Swift program written for a Mac into one that compiles on Linux
/// against KVOFoundation (SPEC §11.0) and reports what Apple's runtime does:
///
/// - `import Foundation` (or Cocoa) imports the runtime;
/// - `@objc`, `@objc(name)`, `@objcMembers`, `@nonobjc` and `dynamic` are
///   blanked (Linux rejects them), column for column;
/// - each property of an NSObject subclass gets observers that tell KVO:
///   `@objc dynamic` ones announce the change first in `willSet` and finish it
///   last in `didSet` (§11.1's order), others report a silent assignment;
///   Swift's own rules keep assignments in `init` and in a property's own
///   observers direct (they run no observers);
/// - each such class gets `_kvoDescribe`, its KVC table: properties with
///   getters and setters, and the methods KVC finds by name;
/// - `observe(\.key…)` learns the key's name, `#keyPath(A.b)` is `"b"`,
///   `&context` is a pointer named after its variable;
/// - top-level bindings name their objects (§3.1), and each statement that
///   starts a line is marked with its location for run-time reports.
///
/// The rewrite is a list of text edits on the original source: lines that
/// are inserted are followed by `#sourceLocation`, so every compiler
/// diagnostic points at the user's own file, line and column.
enum SwiftRewriter {
    /// Classes whose instances are NSObjects without being declared in the program.
    static let runtimeClasses: Set<String> = [
        "NSObject", "NSKeyValueObservation", "Progress", "UserDefaults", "Operation", "BlockOperation",
        "OperationQueue",
    ]

    /// Properties of Foundation's classes that Objective-C sees: a
    /// subclass's `override var isFinished` is `@objc` as the property it
    /// overrides, without saying so.
    static let foundationProperties: [String: Set<String>] = [
        "Operation": operationProperties, "BlockOperation": operationProperties,
        "OperationQueue": [
            "operations", "operationCount", "maxConcurrentOperationCount", "isSuspended", "name", "qualityOfService",
        ],
        "Progress": [
            "totalUnitCount", "completedUnitCount", "fractionCompleted", "isFinished", "isIndeterminate",
            "isCancelled", "isPaused", "isCancellable", "isPausable", "localizedDescription",
            "localizedAdditionalDescription", "userInfo", "kind",
        ],
    ]
    static let operationProperties: Set<String> = [
        "isFinished", "isExecuting", "isReady", "isCancelled", "isAsynchronous", "isConcurrent", "dependencies",
        "queuePriority", "completionBlock", "name", "qualityOfService",
    ]

    /// The Objective-C names of Foundation's properties that Swift names
    /// otherwise (`getter=isFinished` of the property `finished`): what
    /// `#keyPath(Operation.isFinished)` is on a Mac.
    static let objectiveCNames: [String: [String: String]] = [
        "Operation": operationObjectiveCNames, "BlockOperation": operationObjectiveCNames,
        "OperationQueue": ["isSuspended": "suspended"],
    ]
    static let operationObjectiveCNames = [
        "isFinished": "finished", "isExecuting": "executing", "isReady": "ready", "isCancelled": "cancelled",
        "isAsynchronous": "asynchronous", "isConcurrent": "concurrent",
    ]

    static func rewrite(_ source: String, fileName: String) -> RewrittenProgram {
        let tree = Parser.parse(source: source)
        return rewrite(tree, source: source, lines: LineMap(file: fileName))
    }

    /// The rewrite of a parsed `source`; `lines` says which file and line
    /// each line of it is, `echoes` whether top-level expressions echo their
    /// value (the REPL). `edits` come first where they share a place with
    /// the rewriter's own, and `last` after everything.
    static func rewrite(
        _ tree: SourceFileSyntax, source: String, lines: LineMap, echoes: Bool = false, edits: [Edit] = [],
        last: String = ""
    ) -> RewrittenProgram {
        let converter = SourceLocationConverter(fileName: lines.names[0], tree: tree)
        let classes = ClassCollector(viewMode: .sourceAccurate)
        classes.walk(tree)
        let collector = EditCollector(
            source: source, converter: converter, classes: classes.nsObjectClasses(),
            ancestors: classes.runtimeAncestors())
        collector.extensionsOf = classes.extensionsOf
        collector.genericParameters = classes.genericParameters
        collector.lacksMember = classes.lacks
        collector.echoes = echoes
        collector.edits = edits
        collector.walk(tree)
        collector.finish(tree)
        // A `#!` line is allowed first only: a comment of the same width keeps the lines.
        if source.hasPrefix("#!") { collector.edits.append(Edit(start: 0, end: 2, text: "//")) }
        if !last.isEmpty {
            let end = source.utf8.count
            collector.edits.append(Edit(start: end, end: end, text: last))
        }
        // The program's own `#sourceLocation()`: back to the user's file
        // and line, as the rewriter's directives name it (swiftc's own reset
        // would return to the rewritten file in the cache). Last, after
        // whatever is inserted before it.
        let locations = ProgramSourceLocations(source: source, converter: converter)
        locations.walk(tree)
        for directive in locations.directives where directive.target == nil {
            collector.edits.append(
                Edit(start: directive.start, end: directive.end, text: fileDirective(directive.line + 1, lines: lines)))
        }
        let text = apply(collector.edits, to: source, lines: lines, converter: converter, locations: locations)
        let keys = KeyPathStringCollector(converter: converter)
        keys.walk(tree)
        return RewrittenProgram(
            source: text, warnings: collector.warnings.sorted { ($0.line, $0.column) < ($1.line, $1.column) },
            errors: collector.errors, keyPaths: keys.uses, knownKeys: keys.known.sorted())
    }

    /// Applies the edits (sorted, non-overlapping). An edit whose text has a
    /// newline is followed by a `#sourceLocation` back to the original file
    /// and line, and spaces up to the original column. Where one of the
    /// program's own `#sourceLocation(file:line:)` rules, the directive says
    /// what it says, as swiftc would have counted on from it.
    static func apply(
        _ edits: [Edit], to source: String, lines: LineMap, converter: SourceLocationConverter,
        locations: ProgramSourceLocations? = nil
    )
        -> String
    {
        let bytes = Array(source.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        // The file literal and line swiftc names for the source's `line`.
        func place(_ line: Int) -> (literal: String, line: Int) {
            if let user = locations?.ruling(line), let target = user.target {
                return (target.literal, target.line + (line - user.line - 1))
            }
            let (name, shown) = lines.locate(line)
            return (SourceLocationFile.literal(name), shown)
        }
        func directive(_ line: Int) -> [UInt8] {
            let (literal, shown) = place(line)
            return Array("#sourceLocation(file: \"\(literal)\", line: \(shown))\n".utf8)
        }
        let marker = SourceLocationFile.generatedMarker + "\n"
        output += directive(1)
        var cursor = 0
        let sorted = edits.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
        for (_, edit) in sorted {
            guard edit.start >= cursor, edit.end >= edit.start, edit.end <= bytes.count else { continue }
            output += bytes[cursor..<edit.start]
            if edit.text.contains(marker) {
                // Code kvo-run adds: named as such, at the line it is added at.
                let (literal, shown) = place(converter.location(for: AbsolutePosition(utf8Offset: edit.start)).line)
                let named =
                    "#sourceLocation(file: \"\(SourceLocationFile.generatedPrefix)\(literal)\", line: \(shown))\n"
                output += Array(edit.text.replacing(marker, with: named).utf8)
            } else {
                output += Array(edit.text.utf8)
            }
            cursor = edit.end
            if edit.text.contains("\n") {
                let location = converter.location(for: AbsolutePosition(utf8Offset: edit.end))
                if !edit.text.hasSuffix("\n") { output.append(UInt8(ascii: "\n")) }
                output += directive(location.line)
                output += Array(repeating: UInt8(ascii: " "), count: max(0, location.column - 1))
            }
        }
        output += bytes[cursor...]
        return String(decoding: output, as: UTF8.self)
    }

    /// The directive that names the user's file (or REPL entry) and line for
    /// the source's `line`: its name escaped for any file name
    /// (`SourceLocationFile`, which kvo-run reads swiftc's output with).
    static func fileDirective(_ line: Int, lines: LineMap) -> String {
        let (name, shown) = lines.locate(line)
        return "#sourceLocation(file: \"\(SourceLocationFile.literal(name))\", line: \(shown))"
    }
}
