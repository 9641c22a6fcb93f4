import KVOCore
import KVOOutput

/// The objects a Swift value holds, for the graph (`kvo-run graph`): an
/// object held in a stored property directly, in an optional, or in an
/// array, a dictionary (by key) or a set there, nested up to
/// `ObservationGraph.maxHeldDepth` deep, each with where it is held
/// (`tokens[0]`, `byName["a"]`): the twin of KVOOutput's reading of a
/// scenario's slots (`ObservationGraph.storedRelations`). Read by
/// reflection of the standard library's own containers only, so that no
/// code of the program runs for a picture (a `description` of its own, a
/// `customMirror`).
enum _KVOHeldObjects {
    typealias Held = ObservationGraph.Held

    /// The containers followed, by their type's name: the standard
    /// library's, whose mirrors are its own code.
    private static let containers = [
        "Swift.Optional<", "Swift.Array<", "Swift.ContiguousArray<", "Swift.ArraySlice<", "Swift.Dictionary<",
        "Swift.Set<",
    ]

    static func collect(_ value: Any, path: String, depth: Int, budget: inout Int, into found: inout [Held]) {
        guard budget > 0 else { return }
        budget -= 1
        if let object = value as? NSObject {
            if let engineObject = object._kvoObject { found.append(Held(path: path, object: engineObject)) }
            return
        }
        guard depth < ObservationGraph.maxHeldDepth else { return }
        let typeName = _typeName(type(of: value), qualified: true)
        guard containers.contains(where: { typeName.hasPrefix($0) }) else { return }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            if let wrapped = mirror.children.first {
                collect(wrapped.value, path: path, depth: depth + 1, budget: &budget, into: &found)
            }
        case .collection:
            for (index, element) in mirror.children.enumerated() {
                guard budget > 0 else { return }
                collect(element.value, path: "\(path)[\(index)]", depth: depth + 1, budget: &budget, into: &found)
            }
        case .dictionary:
            // In order of their keys: a dictionary's order differs run to run.
            var entries: [(key: String, value: Any)] = []
            for entry in mirror.children {
                guard budget > 0 else { break }
                budget -= 1
                let pair = Array(Mirror(reflecting: entry.value).children)
                guard pair.count == 2 else { continue }
                entries.append((keyText(pair[0].value), pair[1].value))
            }
            for entry in entries.enumerated().sorted(by: { a, b in
                a.element.key != b.element.key ? a.element.key < b.element.key : a.offset < b.offset
            }) {
                collect(
                    entry.element.value, path: "\(path)[\(entry.element.key)]", depth: depth + 1, budget: &budget,
                    into: &found)
            }
        case .set:
            var members: [KVOObject] = []
            for element in mirror.children {
                guard budget > 0 else { break }
                budget -= 1
                if let object = element.value as? NSObject, let engineObject = object._kvoObject {
                    members.append(engineObject)
                }
            }
            for member in ObservationGraph.sortedByName(members) {
                found.append(Held(path: path, object: member, inSet: true))
            }
        default:
            return
        }
    }

    /// A dictionary key as a subscript shows it: a string quoted, a number
    /// or an enum case as Swift prints it; a key whose description is the
    /// program's own code is `…` (a picture runs none of it), as is one
    /// longer than 40 characters past its 39th.
    static func keyText(_ key: Any) -> String {
        let text: String
        if let string = key as? String {
            text = string.debugDescription
        } else if key is CustomStringConvertible || key is CustomDebugStringConvertible || key is TextOutputStreamable,
            !_typeName(type(of: key), qualified: true).hasPrefix("Swift.")
        {
            return "…"
        } else {
            text = String(describing: key)
        }
        return text.count <= 40 ? text : String(text.prefix(39)) + "…"
    }
}

extension _KVOProcess {
    /// The objects `object`'s Swift object holds in its stored properties
    /// (a scenario's object holds them in its slots), superclass's first,
    /// each with where (`_KVOHeldObjects`). Read by reflection: no getter of
    /// the program runs for a picture.
    func relatedObjects(of object: KVOObject) -> [ObservationGraph.Held] {
        // A token's own fields are the runtime's, not the program's.
        guard let host = host(of: object), !(host is NSKeyValueObservation) else { return [] }
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: host)
        while let current = mirror, current.subjectType != NSObject.self {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        var related: [ObservationGraph.Held] = []
        var budget = ObservationGraph.maxHeldValues
        for current in mirrors.reversed() {
            for child in current.children {
                _KVOHeldObjects.collect(
                    child.value, path: child.label ?? "_", depth: 0, budget: &budget, into: &related)
            }
        }
        return related
    }

    /// The objects the program's top-level names hold in arrays,
    /// dictionaries, sets and optionals (`_kvoHolds`), by name: roots of the
    /// graph, a token among them named after where it is held.
    func heldAtTopLevel() -> [ObservationGraph.Held] {
        guard let holders = output.pictures?.holders, !holders.isEmpty else { return [] }
        var found: [ObservationGraph.Held] = []
        var budget = ObservationGraph.maxHeldValues
        for name in holders.keys.sorted() {
            guard let read = holders[name] else { continue }
            _KVOHeldObjects.collect(read(), path: name, depth: 0, budget: &budget, into: &found)
        }
        return found
    }
}

/// After a top-level `let`/`var` whose value may hold objects (an array, a
/// dictionary, a set, an optional; a `var` given a token): how to read it
/// when the graph is drawn, by name. Nothing is kept unless a graph is.
public func _kvoHolds<T>(_ name: String, _ read: @escaping () -> T) {
    let process = _KVOProcess.entered()
    defer { process.lock.leave() }
    guard let pictures = process.output.pictures, pictures.graphPath != nil else { return }
    pictures.holders[name] = { read() }
}
