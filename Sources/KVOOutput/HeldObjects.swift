import KVOCore

extension ObservationGraph {
    /// An object kept by another in a stored property, or by a top-level
    /// name, and where: `account`, `tokens[0]`, `byName["a"]`; a set's
    /// member has no place of its own (`inSet`: it is a member of `path`).
    public struct Held {
        public let path: String
        public let object: KVOObject
        public let inSet: Bool

        public init(path: String, object: KVOObject, inSet: Bool = false) {
            self.path = path
            self.object = object
            self.inSet = inSet
        }

        /// What its edge from the holder says.
        var edgeLabel: String { inSet ? "\(path) (set)" : path }
    }

    /// How deep in nested collections held objects are looked for
    /// (`groups[0]["a"][1]` is 3 deep): the pictures show what a program
    /// keeps, not every value it builds.
    public static let maxHeldDepth = 4
    /// The most values one holder's collections are read for: an array of
    /// a million numbers is not walked for a picture of 500 objects.
    public static let maxHeldValues = 4_096

    /// The objects held in `object`'s slots, directly or in arrays and sets
    /// there, each with its property (a scenario's twin of the runtime's
    /// reflection of a Swift object's stored properties), inherited ones first.
    public static func storedRelations(_ object: KVOObject) -> [Held] {
        let slots = object.slots
        var found: [Held] = []
        var budget = maxHeldValues
        for property in object.cls.properties {
            guard let slot = property.slot, slot < slots.count else { continue }
            collect(slots[slot], path: property.name, depth: 0, budget: &budget, into: &found)
        }
        return found
    }

    /// The objects a scenario's top-level names hold: bound directly (roots
    /// already), or in arrays and sets.
    public static func heldAtTopLevel(_ globals: [(name: String, value: Value)]) -> [Held] {
        var found: [Held] = []
        var budget = maxHeldValues
        for (name, value) in globals {
            collect(value, path: name, depth: 0, budget: &budget, into: &found)
        }
        return found
    }

    /// The objects in `value`: itself, or an array's elements by index and
    /// a set's members, in order of their names (a set has none of its own:
    /// a Swift program's sets iterate in an order that differs run to run).
    static func collect(_ value: Value, path: String, depth: Int, budget: inout Int, into found: inout [Held]) {
        guard budget > 0 else { return }
        budget -= 1
        switch value {
        case .object(let object):
            found.append(Held(path: path, object: object))
        case .array(let elements) where depth < maxHeldDepth:
            for (index, element) in elements.enumerated() {
                guard budget > 0 else { return }
                collect(element, path: "\(path)[\(index)]", depth: depth + 1, budget: &budget, into: &found)
            }
        case .set(let set) where depth < maxHeldDepth:
            var members: [KVOObject] = []
            for element in set.elements {
                guard budget > 0 else { break }
                budget -= 1
                if case .object(let object) = element { members.append(object) }
            }
            for object in sortedByName(members) { found.append(Held(path: path, object: object, inSet: true)) }
        default:
            return
        }
    }

    /// `objects` in order of their names, then of creation for equal names:
    /// the same order in a scenario and in a compiled program.
    public static func sortedByName(_ objects: [KVOObject]) -> [KVOObject] {
        objects.enumerated().sorted { a, b in
            a.element.name != b.element.name ? a.element.name < b.element.name : a.offset < b.offset
        }.map(\.element)
    }

    /// The name a picture gives a token (Swift's `NSKeyValueObservation`,
    /// whose own name says nothing) that no top-level name binds but a
    /// top-level array, dictionary, optional or set holds: where it is held,
    /// `tokens[0]` (a set's member: `NSKeyValueObservation#3 in tokens`).
    /// Other objects keep their names: an observance is labelled with its
    /// object's name, as a dump shows it.
    static func displayNames(_ topLevel: [Held]) -> [ObjectIdentifier: String] {
        var names: [ObjectIdentifier: String] = [:]
        for held in topLevel
        where held.object.cls.name == "NSKeyValueObservation" && held.object.name.contains("#") {
            let id = ObjectIdentifier(held.object)
            guard names[id] == nil else { continue }
            names[id] = held.inSet ? "\(held.object.name) in \(held.path)" : held.path
        }
        return names
    }
}
