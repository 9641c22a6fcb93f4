extension Array {
    /// `removeAll(keepingCapacity: true)` destroys the elements through an
    /// unspecialised runtime call that costs hundreds of instructions; the
    /// engine's per-change arrays mostly hold one or two elements, which
    /// popping removes for a few each.
    @inline(__always)
    mutating func removeAllKeepingCapacity() {
        if count > 8 { return removeAll(keepingCapacity: true) }
        while !isEmpty { removeLast() }
    }
}
