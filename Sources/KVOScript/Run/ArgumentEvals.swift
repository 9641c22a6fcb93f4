import KVOCore

/// The compiled arguments of a call, evaluated left to right.
struct ArgumentEvals {
    private struct Box {
        let eval: Eval
    }
    private let boxes: [Box]
    init(_ evals: [Eval]) { boxes = evals.map(Box.init) }
    var count: Int { boxes.count }
    subscript(index: Int) -> Eval { boxes[index].eval }
    func forEach(_ body: (Eval) throws -> Void) rethrows {
        for box in boxes { try body(box.eval) }
    }
    func map<T>(_ transform: (Eval) throws -> T) rethrows -> [T] {
        var results: [T] = []
        results.reserveCapacity(boxes.count)
        for box in boxes { results.append(try transform(box.eval)) }
        return results
    }
}
