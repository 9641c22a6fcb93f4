import KVOCore

/// A per-site cache of the last class seen and its property, so a dynamic
/// `o.name` costs one identity check once warm.
final class MemberCache {
    private var cls: ClassInfo?
    private var cached: PropertyInfo?

    /// The hit is inlined into the caller (a set statement runs it at every
    /// set); the lookup by name is not.
    @inline(__always)
    func property(of object: KVOObject, _ key: String) throws -> PropertyInfo {
        if object.cls === cls, let cached { return cached }
        return try lookUp(object, key)
    }

    private func lookUp(_ object: KVOObject, _ key: String) throws -> PropertyInfo {
        guard let property = object.cls.property(named: key) else {
            throw ScriptError.runtime(
                .noProperty(
                    className: object.cls.name, key: key,
                    suggestion: Suggestion.didYouMean(key, in: object.cls.properties.map(\.name))))
        }
        cls = object.cls
        cached = property
        return property
    }

    func lookup(_ object: KVOObject, _ key: String) -> PropertyInfo? {
        if object.cls === cls, let cached { return cached }
        guard let property = object.cls.property(named: key) else { return nil }
        cls = object.cls
        cached = property
        return property
    }
}
