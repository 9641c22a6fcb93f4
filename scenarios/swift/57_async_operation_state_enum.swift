// The canonical state-enum asynchronous Operation (will/did for the old and
// the new state's key), descended from WWDC 2015 "Advanced NSOperations".
// Source: gist vani2/12d4e40e3a476042c28c405ccc84dc96 (identical to
// powhu/725687d2e6c3dff61358a1f4ebc91b12); main(), the queue and the
// observer with .prior are added (research notes §3.2). The queue learns
// that the operation ended from its isFinished notification alone.
import Foundation

class AsyncOperation: Operation {
    enum State: String {
        case ready, executing, finished
        fileprivate var keyPath: String { return "is" + rawValue.capitalized }
    }
    var state = State.ready {
        willSet {
            willChangeValue(forKey: state.keyPath)
            willChangeValue(forKey: newValue.keyPath)
        }
        didSet {
            didChangeValue(forKey: state.keyPath)
            didChangeValue(forKey: oldValue.keyPath)
        }
    }
    override var isAsynchronous: Bool { return true }
    override var isReady: Bool { return super.isReady && state == .ready }
    override var isExecuting: Bool { return state == .executing }
    override var isFinished: Bool { return state == .finished }

    override func start() {
        if isCancelled { state = .finished } else { main(); state = .executing }
    }
    override func cancel() { super.cancel(); state = .finished }
}

final class Sleepy: AsyncOperation {
    override func main() {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { self.state = .finished }
    }
}

final class Printer: NSObject {
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        print(keyPath!, "prior:", change?[.notificationIsPriorKey] != nil, "new:", change?[.newKey] ?? "-")
    }
}

let op = Sleepy()
let p = Printer()
for k in ["isReady", "isExecuting", "isFinished"] { op.addObserver(p, forKeyPath: k, options: [.new, .prior], context: nil) }
let q = OperationQueue()
q.addOperations([op], waitUntilFinished: true)
print("queue empty:", q.operationCount == 0)
for k in ["isReady", "isExecuting", "isFinished"] { op.removeObserver(p, forKeyPath: k) }
