import KVOCore

/// The observation graph as Graphviz DOT: objects as nodes (class and name,
/// with the keys that observation involves as rows), one solid edge per
/// observance from the observed key to the observer's header, labelled with
/// its registration index (`acct[1]`, as a dump names it), dashed edges for
/// dependent keys ("affects"), dotted edges for the forwarding observances of
/// key paths, an edge from each object to the objects it holds in its stored
/// properties (labelled with where: `tokens[0]`), released objects greyed.
/// Built from the engine's state; the same state always gives the same text
/// (goldens pin it).
public enum ObservationGraph {
    /// The most objects drawn: a picture of a million objects helps nobody,
    /// and `dot` would take minutes.
    static let maxObjects = 500
    /// The most key rows one object shows, and edges the whole picture
    /// draws: 220,000 observed keys of one object took 20 s to lay out as
    /// DOT and `dot` minutes to render. What is left out is said on the
    /// picture itself (the graph's label).
    static let maxKeysPerObject = 100
    static let maxEdges = 1_000

    /// `related`: the objects one holds in its properties, which the graph
    /// follows past the roots and draws an edge to. A scenario's objects keep
    /// their properties in slots; a compiled Swift program's are read by
    /// reflection (KVOFoundation). `topLevel`: the objects top-level names
    /// hold in arrays, dictionaries, sets and optionals, roots too (a token
    /// among them is named after where it is held: `displayNames`).
    public static func dot(
        from roots: [KVOObject], topLevel: [Held] = [], related: (KVOObject) -> [Held] = storedRelations
    ) -> String {
        var held: [ObjectIdentifier: [Held]] = [:]
        let objects = reachable(from: roots + topLevel.map(\.object)) { object in
            let found = related(object)
            held[ObjectIdentifier(object)] = found
            return found.map(\.object)
        }
        let names = displayNames(topLevel)
        var ids: [ObjectIdentifier: Int] = [:]
        for (index, object) in objects.enumerated() { ids[ObjectIdentifier(object)] = index }
        var keys: [[String]] = objects.map { _ in [] }
        // Each object's rows by key, so finding a row is a lookup, not a search.
        var rows: [[String: Int]] = objects.map { _ in [:] }
        var edges: [String] = []
        // Keys refused a row, each counted once.
        var keysLeftOut: Set<ObjectKeyName> = []
        var edgesLeftOut = 0
        // Point nodes drawn: a self-observance, or a key path affecting a
        // key, goes through one of its own.
        var pointNodes = 0

        /// The row of `key` on `object` (added if new); nil when the object
        /// already shows `maxKeysPerObject` rows.
        func port(_ object: KVOObject, _ key: String) -> String? {
            guard let id = ids[ObjectIdentifier(object)] else { return nil }
            if let index = rows[id][key] { return "n\(id):k\(index)" }
            guard keys[id].count < maxKeysPerObject else {
                keysLeftOut.insert(ObjectKeyName(object: id, key: key))
                return nil
            }
            keys[id].append(key)
            rows[id][key] = keys[id].count - 1
            return "n\(id):k\(keys[id].count - 1)"
        }
        func node(_ object: KVOObject) -> String { ids[ObjectIdentifier(object)].map { "n\($0)" } ?? "" }
        func add(_ edge: @autoclosure () -> String?) {
            guard edges.count < maxEdges else {
                edgesLeftOut += 1
                return
            }
            if let edge = edge() { edges.append(edge) } else { edgesLeftOut += 1 }
        }

        for object in objects where !object.isReleased {
            guard let info = object.observationInfo else { continue }
            if edges.count >= maxEdges {
                // Counted, not walked: nothing more of them is drawn.
                edgesLeftOut += info.count
                continue
            }
            for (index, observance) in info.observances.enumerated() {
                guard edges.count < maxEdges else {
                    edgesLeftOut += 1
                    continue
                }
                // The observed key has its row even when no edge is drawn from it.
                let from = port(object, observance.firstKey)
                if let root = observance.root {
                    // Forwarding: the change here reaches the root's object.
                    guard ids[ObjectIdentifier(root.observed)] != nil else { continue }
                    add(
                        from.flatMap { from in
                            port(root.observed, root.firstKey).map { to in
                                // Named as a dump names it: `person[0]`.
                                let index = root.observed.observationInfo?.index(of: root) ?? 0
                                let label =
                                    "\(observance.keyPath(shownUpTo: 200)), forwarded for "
                                    + "\(root.observed.name)[\(index)] (\(root.observer.name))"
                                return "  \(from) -> \(to) [style=dotted, color=\"#1f6fb2\", "
                                    + "fontcolor=\"#1f6fb2\", label=\(quoted(label))];"
                            }
                        })
                } else if ids[ObjectIdentifier(observance.observer)] != nil {
                    add(
                        from.map { from in
                            // Named as a dump names it (`acct[1]`): the did
                            // phase tells the highest index first.
                            let options = "[" + observance.options.names.joined(separator: ", ") + "]"
                            let lines =
                                ["\(object.name)[\(index)]: \(observance.keyPath)", options]
                                + (observance.context.map { [$0.name] } ?? [])
                            let to = node(observance.observer) + ":h"
                            guard observance.observer === object else {
                                return "  \(from) -> \(to) [label=\(quoted(lines))];"
                            }
                            // Self-observation: a loop from the row back to
                            // the header. Graphviz lays the labels of several
                            // loops on one node over each other, so each goes
                            // out through a point of its own, its label on
                            // the way out.
                            pointNodes += 1
                            let via = "s\(pointNodes)"
                            return "  \(via) [shape=point, width=0.03, label=\"\"];\n"
                                + "  \(from):e -> \(via) [arrowhead=none, label=\(quoted(lines))];\n"
                                + "  \(via) -> \(to):e;"
                        })
                }
            }
        }
        // Dependent keys, followed from the keys already shown.
        for (id, object) in objects.enumerated() {
            var index = 0
            var drawn: Set<String> = []
            while index < keys[id].count {
                let key = keys[id][index]
                index += 1
                for path in (try? object.cls.keyPathsAffecting(key)) ?? [] {
                    let affecting = path.joined(separator: ".")
                    guard drawn.insert(affecting + "→" + key).inserted else { continue }
                    // A single key affecting another is plain from the dashed
                    // edge between their rows; a key path is named, on an
                    // edge through a point of its own: the label of a loop
                    // on one node was laid over the other edges' labels.
                    add(
                        port(object, path[0]).flatMap { from in
                            port(object, key).map { to in
                                let style = "style=dashed, color=\"#8a5a00\", fontcolor=\"#8a5a00\""
                                guard path.count > 1 else { return "  \(from):w -> \(to):w [\(style)];" }
                                pointNodes += 1
                                let via = "d\(pointNodes)"
                                return "  \(via) [shape=point, width=0.03, label=\"\", color=\"#8a5a00\"];\n"
                                    + "  \(via) -> \(from):w [dir=none, \(style), "
                                    + "label=\(quoted(affecting))];\n"
                                    + "  \(via) -> \(to):w [\(style)];"
                            }
                        })
                }
            }
        }

        // What each object holds, from holder to held, so that the picture
        // shows who keeps a token (or any object) alive: after the
        // observances and dependent keys, the edges that matter most when a
        // picture is cut.
        for (id, object) in objects.enumerated() where !object.isReleased {
            for kept in held[ObjectIdentifier(object)] ?? [] {
                guard let to = ids[ObjectIdentifier(kept.object)] else { continue }
                add(
                    "  n\(id):h -> n\(to):h [dir=back, arrowtail=diamond, arrowhead=none, color=\"#6b6b6b\", "
                        + "fontcolor=\"#6b6b6b\", label=\(quoted(kept.edgeLabel))];")
            }
        }
        let objectsLeftOut = roots.count + topLevel.count > objects.count && objects.count == maxObjects
        var legend =
            "solid: observance obj[i], observed key → observer (a change tells the highest i first)    dashed: key affects key (dependent keys)    "
            + "dotted: key-path forwarding    diamond: holder → object held (property named)    grey: released"
        var leftOut: [String] = []
        if objectsLeftOut { leftOut.append("objects past the first \(maxObjects)") }
        if !keysLeftOut.isEmpty {
            leftOut.append("\(keysLeftOut.count) keys (at most \(maxKeysPerObject) an object)")
        }
        if edgesLeftOut > 0 { leftOut.append("\(edgesLeftOut) edges (at most \(maxEdges))") }
        if !leftOut.isEmpty { legend += "\nnot drawn: " + leftOut.joined(separator: ", ") }
        var lines = [
            "digraph kvo {",
            "  graph [rankdir=LR, fontname=\"Helvetica\", nodesep=0.4, ranksep=0.9];",
            "  node [shape=plaintext, fontname=\"Helvetica\", fontsize=12];",
            "  edge [fontname=\"Helvetica\", fontsize=10];",
            "  label=\(quotedLines(legend));",
            "  labelloc=b; fontsize=9;",
        ]
        for (id, object) in objects.enumerated() {
            let name = names[ObjectIdentifier(object)] ?? object.name
            lines.append("  n\(id) [label=<\(table(object, name: name, keys[id]))>];")
        }
        lines += edges
        if objectsLeftOut { lines.append("  // more objects than the \(maxObjects) drawn") }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private struct ObjectKeyName: Hashable {
        let object: Int
        let key: String
    }

    /// `text` as a DOT string, its line breaks as DOT's `\n`.
    static func quotedLines(_ text: String) -> String {
        quoted(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// The roots, then every object reached from them through observances
    /// (observers, forwarding roots) and `related`, breadth first.
    static func reachable(from roots: [KVOObject], related: (KVOObject) -> [KVOObject]) -> [KVOObject] {
        var seen: Set<ObjectIdentifier> = []
        var order: [KVOObject] = []
        func visit(_ object: KVOObject) {
            guard order.count < maxObjects, seen.insert(ObjectIdentifier(object)).inserted else { return }
            order.append(object)
        }
        roots.forEach(visit)
        var index = 0
        while index < order.count {
            let object = order[index]
            index += 1
            guard !object.isReleased else { continue }
            for observance in object.observationInfo?.observances ?? [] {
                visit(observance.observer)
                if let root = observance.root { visit(root.observed) }
            }
            related(object).forEach(visit)
        }
        return order
    }

    /// The node's HTML-like label: a header row, then one row per key (a port).
    static func table(_ object: KVOObject, name: String, _ keys: [String]) -> String {
        let released = object.isReleased
        let header = released ? "#d9d9d9" : "#dbe9f6"
        let font = released ? "<FONT COLOR=\"#7f7f7f\">" : "<FONT>"
        var rows =
            "<TR><TD PORT=\"h\" BGCOLOR=\"\(header)\">\(font)<B>\(html(name))</B>: \(html(object.cls.name))"
        if released { rows += " (released)" }
        rows += "</FONT></TD></TR>"
        for (index, key) in keys.enumerated() {
            rows += "<TR><TD PORT=\"k\(index)\" ALIGN=\"LEFT\">\(font)\(html(key))</FONT></TD></TR>"
        }
        let color = released ? "#7f7f7f" : "#1b1b1b"
        return "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"4\" COLOR=\"\(color)\">"
            + rows + "</TABLE>"
    }

    /// Text in an HTML-like label, which Graphviz parses as XML.
    static func html(_ text: String) -> String { XMLText.escaped(text, keepingLineBreaks: false) }

    /// A DOT string of `lines`, joined by DOT's `\n` line breaks.
    static func quoted(_ lines: String...) -> String { quoted(lines) }

    static func quoted(_ lines: [String]) -> String {
        var result = "\""
        for (index, line) in lines.enumerated() {
            if index > 0 { result += "\\n" }
            for character in XMLText.visible(line).unicodeScalars {
                if character == "\\" || character == "\"" { result += "\\" }
                result.unicodeScalars.append(character)
            }
        }
        return result + "\""
    }
}
