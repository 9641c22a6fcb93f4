import KVOCore

/// The Swift overlay's key-path spelling of the two class hooks. As on a
/// Mac, it answers only for the key path `observe(_:options:changeHandler:)`
/// is registering, while it registers (the overlay's key-path bridge):
/// other keys, and keys registered with `addObserver`, get NSObject's answers.
public protocol NSKeyValueObservingCustomization: NSObjectProtocol {
    static func keyPathsAffectingValue(for key: AnyKeyPath) -> Set<AnyKeyPath>
    static func automaticallyNotifiesObservers(for key: AnyKeyPath) -> Bool
}
