/// Where a collection was reached: an array or set read from a property is
/// named after it in exception texts (`<__NSArrayM dept.employees>`), where
/// Apple prints its address.
public struct CollectionOwner {
    public let object: KVOObject
    public let key: String

    public init(object: KVOObject, key: String) {
        self.object = object
        self.key = key
    }

    /// The owner of a `mutableArrayValue` / `mutableSetValue` proxy's collection.
    init?(proxy: Value) {
        switch proxy {
        case .arrayProxy(let object, let keyPath), .setProxy(let object, let keyPath):
            self.init(object: object, key: keyPath)
        default:
            return nil
        }
    }

    public var name: String { "\(object.name).\(key)" }
}
