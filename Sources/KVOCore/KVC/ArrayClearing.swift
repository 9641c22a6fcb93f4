extension Array {
    /// `removeAll(keepingCapacity: true)` destroys the elements through an
    /// unspecialised runtime call that costs hundreds of instructions; the
    /// engine's per-change arrays and the interpreter's argument arrays
    /// mostly hold one to three elements, which popping removes for a few each.
    @inlinable @inline(__always)
    public mutating func removeAllKeepingCapacity() {
        if count > 8 { return removeAll(keepingCapacity: true) }
        while !isEmpty { removeLast() }
    }
}
