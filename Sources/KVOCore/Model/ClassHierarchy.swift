/// What the classes of one hierarchy share, from its root class down: the
/// names declared anywhere in it (a name declared nowhere is known missing
/// without walking the superclasses), and counts of changes that the
/// per-class caches compare with (a subclass's cached `observeValue` is
/// current while the hook count it saw is).
///
/// The counts belong to the hierarchy, not to the process: a class's
/// properties and hooks come from its own chain of superclasses, all in one
/// hierarchy, so a change elsewhere (another hierarchy, another run on
/// another thread) cannot make its caches stale.
final class ClassHierarchy {
    var names: Set<String> = []
    var hookChanges = 0
    /// Bumped whenever a property is added, or a property's default changes,
    /// anywhere in the hierarchy: the per-class caches of properties, default
    /// slots and lookups are then worked out again.
    var propertyGeneration = 0
    /// Some property is named `get…`: KVC's first choice, `get<Key>`,
    /// may then come before a property `key`.
    var hasGetNames = false
}
