struct PendingRecord {
    let observance: Observance
    /// Whether the to-many detail (kind, indexes, elements) reaches this observer.
    let detailed: Bool
    /// Where the old value is: `sharedOld` (the change's), `noOld`, or an
    /// index into the change's own old values.
    let oldSlot: Int

    static let sharedOld = -1
    static let noOld = -2
}
