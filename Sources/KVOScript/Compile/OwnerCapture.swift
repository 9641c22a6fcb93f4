import KVOCore

/// The object a call's receiver `base.key` was read from, when that receiver
/// turns out to be a collection (read right after the receiver is evaluated).
final class OwnerCapture {
    var object: Value = .null
    var key: String?

    var owner: CollectionOwner? {
        guard let key, case .object(let object) = object else { return nil }
        return CollectionOwner(object: object, key: key)
    }
}
