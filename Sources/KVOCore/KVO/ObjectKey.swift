/// One key of one object, by the object's identity: the pending-change index
/// and the keys whose Swift token ended (`--explain`) are keyed by it.
struct ObjectKey: Hashable {
    let object: ObjectIdentifier
    let key: String
    init(_ object: KVOObject, _ key: String) {
        self.object = ObjectIdentifier(object)
        self.key = key
    }
}
