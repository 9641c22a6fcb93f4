import KVOCore

/// The leading-dot names a scenario can write (`.new`, `.insertion`,
/// `.union`, `NSKeyValueChangeKey.newKey`'s `.newKey`) and their values: the
/// checker rejects any other; the compiler emits the value.
enum DotLiterals {
    nonisolated(unsafe) static let values: [String: Value] = [
        "new": .option(.new), "old": .option(.old), "initial": .option(.initial), "prior": .option(.prior),
        "setting": .int(1), "insertion": .int(2), "removal": .int(3), "replacement": .int(4),
        "union": .setMutation(.union), "minus": .setMutation(.minus), "intersect": .setMutation(.intersect),
        "set": .setMutation(.set),
    ].merging(swiftValues) { base, _ in base }

    /// The Swift spellings: change-dictionary keys and character sets, as strings.
    private nonisolated(unsafe) static let swiftValues: [String: Value] = [
        "newKey": .string("new"), "oldKey": .string("old"), "kindKey": .string("kind"),
        "indexesKey": .string("indexes"), "notificationIsPriorKey": .string("notificationIsPrior"),
        "whitespacesAndNewlines": .string("whitespacesAndNewlines"), "whitespaces": .string("whitespaces"),
    ]
}
