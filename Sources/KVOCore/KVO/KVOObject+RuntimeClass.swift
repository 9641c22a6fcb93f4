extension KVOObject {
    /// `object_getClass(o)`'s name (SPEC §11.4): KVO's generated subclass,
    /// `NSKVONotifying_Account`, while the object has an observance of a key
    /// its class notifies automatically and KVC can see; the class's own
    /// name otherwise. A module-qualified Swift name (`main.Account`) gets
    /// Apple's `..` prefix. Each observance is classified once, by its first
    /// key (not its snapshot, which joins the whole key path), and the
    /// observation info keeps count: asking costs no walk of every
    /// observance. The scenario language and the compiled runtime both ask
    /// here.
    public func runtimeClassName() throws -> String {
        let name = cls.runtimeName
        let swizzled =
            try observationInfo?.hasAutomaticObservance { observance in
                let key = observance.firstKey
                guard let property = cls.property(named: key), !property.kvcHidden else { return false }
                return try cls.automaticallyNotifies(forKey: key)
            } ?? false
        guard swizzled else { return name }
        return (name.contains(".") ? ".." : "") + "NSKVONotifying_" + name
    }
}
