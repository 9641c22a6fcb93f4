/// The channel between kvo-run and a compiled Swift program (SPEC §11.0),
/// both ways: kvo-run's settings travel to the program in its environment,
/// and the program's runtime writes back, in files kvo-run names, what the
/// run counted and where a trap stopped it. kvo-run (KVORun) and the runtime
/// (KVOFoundation) both encode and decode here and nowhere else: the
/// variables' names and the files' formats appear in no other file.
public enum ProgramChannel {
    /// What kvo-run tells the program.
    public struct Settings: Equatable, Sendable {
        /// JSON Lines events instead of text (`--format json`).
        public var json = false
        /// ANSI colours on the trace (standard output) and on diagnostics
        /// (standard error).
        public var color = false
        public var diagnosticColor = false
        /// `--max-depth`; nil leaves the engine's own default.
        public var maxDepth: Int?
        public var quiet = false
        public var explain = false
        public var keepGoing = false
        public var legacyDealloc = false
        /// The name diagnostics give the program's file, and where its lines
        /// are read back from.
        public var sourceName = "main.swift"
        public var sourcePath: String?
        /// Where the runtime notes the statement a trap stopped at (`TrapMark`).
        public var trapFile: String?
        /// Where the runtime writes its `Summary` as the program ends.
        public var summaryFile: String?
        /// A picture drawn instead of the trace.
        public var picture: Picture?
        /// The REPL's program: where the run notes how far it got, and the
        /// entries' first lines and names.
        public var repl: REPL?

        public init() {}

        /// The environment that says these settings (added to the program's
        /// inherited one, replacing what it had of the same names).
        /// Dictionaries and sets print in the same order every run
        /// (`SWIFT_DETERMINISTIC_HASHING`), and Swift's own backtracer stays
        /// off: kvo-run reports a trap itself. Naming the backtracer's
        /// program keeps the runtime's start from looking for it (a `dladdr`
        /// walk of the runtime's exported symbols: 1.5 of a cached program's
        /// 6.9 million start-up instructions against libKVORuntime.so, 1.8
        /// million in the program host); with `enable=no` it never runs.
        public var environment: [(name: String, value: String)] {
            var environment: [(name: String, value: String)] = [
                ("SWIFT_DETERMINISTIC_HASHING", "1"),
                ("SWIFT_BACKTRACE", "enable=no,swift-backtrace=/dev/null"),
                (Name.format, json ? "json" : "text"),
                (Name.sourceName, sourceName),
            ]
            if let maxDepth { environment.append((Name.maxDepth, String(maxDepth))) }
            if let trapFile { environment.append((Name.trapFile, trapFile)) }
            if let summaryFile { environment.append((Name.summaryFile, summaryFile)) }
            if let sourcePath { environment.append((Name.sourcePath, sourcePath)) }
            for (flag, name) in [
                (quiet, Name.quiet), (legacyDealloc, Name.legacyDealloc), (explain, Name.explain),
                (keepGoing, Name.keepGoing), (color, Name.color), (diagnosticColor, Name.diagnosticColor),
            ] where flag {
                environment.append((name, "1"))
            }
            switch picture {
            case .graph(let file, let at)?:
                environment.append((Name.graphFile, file))
                if let at { environment.append((Name.graphAt, String(at))) }
            case .trace(let file, let title)?:
                environment.append((Name.traceFile, file))
                environment.append((Name.traceTitle, title))
            case nil:
                break
            }
            if let repl {
                environment.append((Name.replMarks, repl.marksFile))
                if let stateFile = repl.stateFile { environment.append((Name.replState, stateFile)) }
                environment.append(
                    (Name.replEntries, repl.entries.map { "\($0.firstLine) \($0.name)" }.joined(separator: "\n")))
            }
            return environment
        }

        /// The settings a program was started with, read through `lookup`
        /// (the runtime passes `getenv`).
        public init(environment lookup: (String) -> String?) {
            json = lookup(Name.format) == "json"
            color = lookup(Name.color) == "1"
            diagnosticColor = lookup(Name.diagnosticColor) == "1"
            maxDepth = lookup(Name.maxDepth).flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            quiet = lookup(Name.quiet) == "1"
            explain = lookup(Name.explain) == "1"
            keepGoing = lookup(Name.keepGoing) == "1"
            legacyDealloc = lookup(Name.legacyDealloc) == "1"
            sourceName = lookup(Name.sourceName) ?? "main.swift"
            sourcePath = lookup(Name.sourcePath)
            trapFile = lookup(Name.trapFile)
            summaryFile = lookup(Name.summaryFile)
            if let file = lookup(Name.graphFile) {
                picture = .graph(file: file, at: lookup(Name.graphAt).flatMap { Int($0) })
            } else if let file = lookup(Name.traceFile) {
                picture = .trace(file: file, title: lookup(Name.traceTitle) ?? "kvo-run trace")
            }
            if let marks = lookup(Name.replMarks) {
                repl = REPL(
                    marksFile: marks, entries: REPL.entries(lookup(Name.replEntries) ?? ""),
                    stateFile: lookup(Name.replState))
            }
        }

        /// The variables' names: here only.
        public enum Name {
            static let format = "KVO_FORMAT"
            static let color = "KVO_COLOR"
            static let diagnosticColor = "KVO_DIAGNOSTIC_COLOR"
            static let maxDepth = "KVO_MAX_DEPTH"
            static let quiet = "KVO_QUIET"
            static let explain = "KVO_EXPLAIN"
            static let keepGoing = "KVO_KEEP_GOING"
            static let legacyDealloc = "KVO_LEGACY_DEALLOC"
            /// Also read by the program host's C `main` (kvo-run's `ProgramHost`).
            public static let sourceName = "KVO_SOURCE_NAME"
            static let sourcePath = "KVO_SOURCE_PATH"
            static let trapFile = "KVO_TRAP_FILE"
            static let summaryFile = "KVO_SUMMARY_FILE"
            static let graphFile = "KVO_GRAPH_FILE"
            static let graphAt = "KVO_GRAPH_AT"
            static let traceFile = "KVO_TRACE_FILE"
            static let traceTitle = "KVO_TRACE_TITLE"
            static let replMarks = "KVO_REPL_MARKS"
            static let replEntries = "KVO_REPL_ENTRIES"
            static let replState = "KVO_REPL_STATE"
        }
    }

    /// The picture a run draws instead of writing its trace, into `file`.
    public enum Picture: Equatable, Sendable {
        /// The observation graph (DOT) at the end, or just after the last
        /// top-level statement at or before line `at`.
        case graph(file: String, at: Int?)
        /// The sequence diagram (SVG), titled so.
        case trace(file: String, title: String)
    }

    /// The REPL's program (SPEC §10.1).
    public struct REPL: Equatable, Sendable {
        /// Where the run writes `begins` when it reaches the new entry and
        /// `ends` when it reaches the end, a line each.
        public var marksFile: String
        /// Each entry's first line in the whole program and its name.
        public var entries: [Entry]
        /// Where the run writes the session's state (`REPLState`) as the new
        /// entry ends; nil: not asked for (`:info`'s run).
        public var stateFile: String?

        public struct Entry: Equatable, Sendable {
            public let firstLine: Int
            public let name: String
            public init(firstLine: Int, name: String) {
                self.firstLine = firstLine
                self.name = name
            }
        }

        public init(marksFile: String, entries: [Entry], stateFile: String? = nil) {
            self.marksFile = marksFile
            self.entries = entries
            self.stateFile = stateFile
        }

        public static let begins = "begins"
        public static let ends = "ends"

        /// The marks a run wrote.
        public static func marks(_ text: String) -> Set<String> {
            Set(text.split(separator: "\n").map(String.init))
        }

        static func entries(_ text: String) -> [Entry] {
            text.split(separator: "\n").compactMap { line in
                guard let space = line.firstIndex(of: " "), let first = Int(line[..<space]), first > 0 else {
                    return nil
                }
                return Entry(firstLine: first, name: String(line[line.index(after: space)...]))
            }
        }
    }

    /// What the REPL's program holds as its new entry ends (SPEC §10.1),
    /// written by the runtime into `REPL.stateFile`: the objects bound to
    /// names, the program's classes and the observation graph. kvo-run keeps
    /// the state of the run that kept the entry, so `:objects`, `:classes`,
    /// `:graph` and Tab completion show the session after its last accepted
    /// entry without running the program again (and so without running again
    /// what reads the clock, or may not do the same twice).
    public struct REPLState: Equatable, Sendable {
        /// An object bound to a name (§3.1), as a picture names it.
        public struct Object: Equatable, Sendable {
            public var name: String
            /// Its class as Swift names it (`Account`).
            public var className: String
            /// Its `description` as the runtime gives it (`<main.Account: acct>`).
            public var description: String
            /// Observances registered on it; nil: released (`release(x)`).
            public var observances: Int?

            public init(name: String, className: String, description: String, observances: Int?) {
                self.name = name
                self.className = className
                self.description = description
                self.observances = observances
            }
        }

        /// A property as the class's KVC table describes it.
        public struct Property: Equatable, Sendable {
            public var name: String
            /// Its Swift type (`Double`, `Account?`).
            public var type: String
            /// KVC and KVO see it (`@objc`).
            public var objc: Bool
            /// A Swift assignment to it notifies (`@objc dynamic`).
            public var dynamic: Bool

            public init(name: String, type: String, objc: Bool, dynamic: Bool) {
                self.name = name
                self.type = type
                self.objc = objc
                self.dynamic = dynamic
            }
        }

        /// A class: the program's own, the classes of the bound objects,
        /// and their superclasses.
        public struct Class: Equatable, Sendable {
            public var name: String
            /// nil for NSObject.
            public var superclass: String?
            /// Declared by the program (else the runtime's: `Progress`…).
            public var declared: Bool
            /// The properties it declares itself, in order (inherited ones are its superclass's).
            public var properties: [Property]

            public init(name: String, superclass: String?, declared: Bool, properties: [Property]) {
                self.name = name
                self.superclass = superclass
                self.declared = declared
                self.properties = properties
            }
        }

        public var objects: [Object] = []
        public var classes: [Class] = []
        /// The observation graph (DOT), as `kvo-run graph` draws it.
        public var graph = ""

        public init() {}

        /// One line per object, class and property (fields split by tabs,
        /// a property after its class), then `graph` and the DOT to the end.
        public var encoded: String {
            var lines: [String] = []
            for object in objects {
                lines.append(
                    Self.line(
                        "object", object.name, object.className, object.description,
                        object.observances.map(String.init) ?? "released"))
            }
            for cls in classes {
                lines.append(Self.line("class", cls.name, cls.superclass ?? "", cls.declared ? "declared" : "runtime"))
                for property in cls.properties {
                    lines.append(
                        Self.line(
                            "property", property.name, property.type, property.objc ? "objc" : "-",
                            property.dynamic ? "dynamic" : "-"))
                }
            }
            lines.append("graph")
            return lines.joined(separator: "\n") + "\n" + graph
        }

        /// Fields never hold a tab or a newline (names and types do not; a
        /// description is written on one line).
        private static func line(_ fields: String...) -> String {
            fields.map { String($0.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }) }
                .joined(separator: "\t")
        }

        /// nil for a text without its `graph` line (a run cut short while writing).
        public init?(decoding text: String) {
            var rest = Substring(text)
            while let end = rest.firstIndex(of: "\n") {
                let line = rest[..<end]
                rest = rest[rest.index(after: end)...]
                if line == "graph" {
                    graph = String(rest)
                    return
                }
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                switch (fields.first, fields.count) {
                case ("object", 5):
                    objects.append(
                        Object(
                            name: fields[1], className: fields[2], description: fields[3], observances: Int(fields[4])))
                case ("class", 4):
                    classes.append(
                        Class(
                            name: fields[1], superclass: fields[2].isEmpty ? nil : fields[2],
                            declared: fields[3] == "declared", properties: []))
                case ("property", 5) where !classes.isEmpty:
                    classes[classes.count - 1].properties.append(
                        Property(
                            name: fields[1], type: fields[2], objc: fields[3] == "objc", dynamic: fields[4] == "dynamic"
                        ))
                default:
                    continue
                }
            }
            return nil
        }
    }

    /// What a run counted, written by the runtime as the program ends
    /// (`exit`, the end of its code, an uncaught exception, a runtime
    /// error); a signal leaves none.
    public struct Summary: Equatable, Sendable {
        public var notifications = 0
        public var objects = 0
        public var statements = 0
        /// Of a trace: events drawn, and events past what is drawn.
        public var eventsDrawn = 0
        public var eventsNotDrawn = 0

        public init() {}

        /// `name value` lines.
        public var encoded: String {
            "notifications \(notifications)\nobjects \(objects)\nstatements \(statements)\n"
                + "drawn \(eventsDrawn)\nnotDrawn \(eventsNotDrawn)\n"
        }

        /// nil for an empty file (the program ended before writing it).
        public init?(decoding text: String) {
            guard !text.isEmpty else { return nil }
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let value = Int(parts[1]) else { continue }
                switch parts[0] {
                case "notifications": notifications = value
                case "objects": objects = value
                case "statements": statements = value
                case "drawn": eventsDrawn = value
                case "notDrawn": eventsNotDrawn = value
                default: continue
                }
            }
        }
    }

    /// The statement a trap or a signal stopped the program at: `LINE
    /// COLUMN\n`, written by the runtime's signal handler with digits by
    /// hand (nothing that allocates runs there: KVOFoundation's
    /// `_KVOTrapReport.write` spells this format).
    public struct TrapMark: Equatable, Sendable {
        public let line: Int
        public let column: Int

        public init?(decoding text: String) {
            let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
            guard numbers.count == 2, numbers[0] > 0 else { return nil }
            line = numbers[0]
            column = max(1, numbers[1])
        }
    }
}
