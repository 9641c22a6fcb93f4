/// The last values of an observed object's derived properties: computed
/// properties whose value is a function of the object's own stored
/// properties alone (the scenario language decides which: `PureGetter`).
///
/// Why: a change of a key that such a property depends on reads the
/// property at will time for `.old`, and its value then is the one read at
/// the previous change's did time, when nothing has been stored since (B5s
/// builds its color String twice per set otherwise). The getter would
/// return the same value, so Apple's output is unchanged; only the work of
/// computing it again is skipped.
///
/// `storeVersion` changes at every store into the object's slots
/// (`KVOObject.subscript(slot:)` is the only way to one), so a value kept at
/// one version holds while the version does. Kept only while the object is
/// observed: it lives in its `ObservationInfo`.
@usableFromInline
struct DerivedValues {
    /// Bumped by every store into the object's slots (`noteStore`).
    @usableFromInline var storeVersion: UInt64 = 0
    /// A few entries: an object has few derived properties.
    private var entries: [Entry] = []

    private struct Entry {
        let key: ObjectIdentifier
        var version: UInt64
        var value: Value
    }

    @usableFromInline init() {}

    /// A store into the object's slots: every kept value may be stale.
    @inlinable
    mutating func noteStore() { storeVersion &+= 1 }

    /// The value kept for `key` if nothing was stored since it was kept.
    func value(for key: ObjectIdentifier) -> Value? {
        for index in entries.indices where entries[index].key == key {
            return entries[index].version == storeVersion ? entries[index].value : nil
        }
        return nil
    }

    /// Keeps `value` for `key` at the current version. Only values that
    /// hold no object (numbers, Booleans, strings, nil): a kept object
    /// would stay alive past its last use, and Apple's output shows when
    /// objects go.
    mutating func keep(_ value: Value, for key: ObjectIdentifier) {
        switch value {
        case .null, .bool, .int, .double, .float, .string: break
        default: return
        }
        for index in entries.indices where entries[index].key == key {
            entries[index].version = storeVersion
            entries[index].value = value
            return
        }
        entries.append(Entry(key: key, version: storeVersion, value: value))
    }
}
