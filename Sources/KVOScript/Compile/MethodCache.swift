import KVOCore

/// A per-site cache for dynamic method dispatch.
final class MethodCache {
    private var cls: ClassInfo?
    private var box: FunctionBox?

    func method(_ machine: Machine, _ object: KVOObject, _ name: String) -> FunctionBox? {
        if object.cls === cls, let box { return box }
        guard let found = machine.method(of: object, name) else { return nil }
        cls = object.cls
        box = found
        return found
    }
}
