/// The exception names a `catch NAME` clause may name: the checker rejects
/// any other, with a suggestion.
enum ExceptionNames {
    static let catchable = [
        "NSRangeException", "NSUnknownKeyException", "NSInvalidArgumentException",
        "NSInternalInconsistencyException", "NSGenericException",
    ]
}
