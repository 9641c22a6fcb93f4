// #keyPath(Operation.isReady) is "ready", the Objective-C property's name
// (getter=isReady), and observe(\.isFinished) hears the notifications an
// operation posts under "isFinished": the two spellings are one key.
// Source: gist FWEugene/af40e1ff45036ed5a31aa328c969dcfb
// (ConcurrentOperation.swift), trimmed, the printout added (research notes
// §3.7). Swift warns, as on a Mac, that the overriding isFinished is not
// @objc dynamic.
import Foundation

open class ConcurrentOperation: Operation {
    enum State: String {
        case Ready = "isReady", Executing = "isExecuting", Finished = "isFinished"
        fileprivate func associatedKey() -> String {
            switch self {
            case .Ready: return #keyPath(Operation.isReady)
            case .Executing: return #keyPath(Operation.isExecuting)
            case .Finished: return #keyPath(Operation.isFinished)
            }
        }
    }
    var state: State = .Ready {
        willSet { willChangeValue(forKey: newValue.rawValue); willChangeValue(forKey: state.rawValue) }
        didSet { didChangeValue(forKey: oldValue.rawValue); didChangeValue(forKey: state.rawValue) }
    }
    open override var isReady: Bool { super.isReady && state == .Ready }
    override open var isAsynchronous: Bool { true }
    override open var isExecuting: Bool { state == .Executing }
    override open var isFinished: Bool { state == .Finished }
    override open func start() {
        if isCancelled { state = .Finished; return }
        state = .Executing
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { self.state = .Finished }
    }
}

for s in [ConcurrentOperation.State.Ready, .Executing, .Finished] {
    print(s.rawValue, "vs #keyPath:", s.associatedKey())
}
let op = ConcurrentOperation()
let t = op.observe(\.isFinished, options: [.new]) { _, c in print("observe(\\.isFinished):", c.newValue!) }
OperationQueue().addOperations([op], waitUntilFinished: true)
t.invalidate()

