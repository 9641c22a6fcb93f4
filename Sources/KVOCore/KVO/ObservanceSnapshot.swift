/// A line of an observation-info dump, resolved to names (docs/language.md#observation-info).
public struct ObservanceSnapshot: Equatable {
    public let index: Int
    public let observer: String
    public let keyPath: String
    public let options: ObservingOptions
    public let context: Context?
    public let property: String

    public static func == (a: ObservanceSnapshot, b: ObservanceSnapshot) -> Bool {
        a.index == b.index && a.observer == b.observer && a.keyPath == b.keyPath
            && a.options == b.options && a.context === b.context && a.property == b.property
    }
}

extension KVOObject {
    /// The observances of this object, with forwarding ones naming their root (`person[0]`).
    /// Identical registrations (same observer, key path, options and
    /// context) share one observance in Apple's KVO, so each is named after
    /// the first of them (`acct[0]` twice), and so is a root a forwarder names.
    public var observanceSnapshots: [ObservanceSnapshot] {
        guard let info = observationInfo else { return [] }
        var sharedByObject: [ObjectIdentifier: [Int]] = [:]
        func observerName(_ observance: Observance) -> String {
            guard let root = observance.root else { return observance.observer.name }
            let rootObject = root.observed
            let rootIndex = rootObject.observationInfo?.index(of: root) ?? 0
            let shared =
                sharedByObject[ObjectIdentifier(rootObject)]
                ?? {
                    let computed = rootObject.sharedObservanceIndexes(names: nil)
                    sharedByObject[ObjectIdentifier(rootObject)] = computed
                    return computed
                }()
            return "\(rootObject.name)[\(rootIndex < shared.count ? shared[rootIndex] : rootIndex)]"
        }
        let names = info.observances.map(observerName)
        let shared = sharedObservanceIndexes(names: names)
        return info.observances.enumerated().map { index, observance in
            ObservanceSnapshot(
                index: shared[index], observer: names[index], keyPath: observance.keyPath,
                options: observance.options, context: observance.context,
                property: "\(cls.name).\(observance.keyPath)")
        }
    }

    /// For each observance, the position of the first identical one (itself
    /// when none is before it), given each one's observer name (`known`).
    /// Without them only roots are compared, which is all a forwarder's name
    /// needs: a root's observer is an object, whose name has no brackets, so
    /// no forwarder (observer `p[0]`) is ever identical to a root.
    fileprivate func sharedObservanceIndexes(names known: [String]?) -> [Int] {
        struct Identity: Hashable {
            let observer: String
            let keyPath: String
            let options: UInt8
            let context: ObjectIdentifier?
        }
        guard let observances = observationInfo?.observances else { return [] }
        var first: [Identity: Int] = [:]
        var shared: [Int] = []
        shared.reserveCapacity(observances.count)
        for (index, observance) in observances.enumerated() {
            // A root's observer is an object: its name is unique. A
            // forwarder's root is a root, whose name needs no further lookup.
            let name: String
            if let known {
                name = known[index]
            } else if observance.root == nil {
                name = observance.observer.name
            } else {
                shared.append(index)
                continue
            }
            let identity = Identity(
                observer: name, keyPath: observance.keyPath, options: observance.options.rawValue,
                context: observance.context.map(ObjectIdentifier.init))
            if let earlier = first[identity] {
                shared.append(earlier)
            } else {
                first[identity] = index
                shared.append(index)
            }
        }
        return shared
    }

    /// Apple's `-observationInfo` description, or nil when nobody observes.
    public var observationInfoDescription: String? {
        let snapshots = observanceSnapshots
        if snapshots.isEmpty { return nil }
        var lines = ["<NSKeyValueObservationInfo \(name)> ("]
        for item in snapshots {
            func flag(_ option: ObservingOptions) -> String { item.options.contains(option) ? "YES" : "NO" }
            lines.append(
                "<NSKeyValueObservance \(name)[\(item.index)]: Observer: \(item.observer), Key path: \(item.keyPath), Options: <New: \(flag(.new)), Old: \(flag(.old)), Prior: \(flag(.prior))> Context: \(item.context?.name ?? "0x0"), Property: \(item.property)>"
            )
        }
        lines.append(")")
        return lines.joined(separator: "\n")
    }
}
