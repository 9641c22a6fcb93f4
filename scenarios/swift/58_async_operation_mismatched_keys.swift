// A variant seen in the wild whose setter sends will for the new state's key
// and did for the key read back after an asynchronous barrier
// (github.com/Changzw/AsyncOperation, AsyncOperation.swift and
// ViewController.swift; the view controller replaced by an NSObject,
// research notes §3.3). Only the new state's key is ever told, and the queue
// still completes: it needs isFinished only. The state's getter waits on a
// concurrent queue while KVO is mid-change: kvo-run's lock must not be
// needed by the plain store in the barrier block.
import Foundation

open class AsyncOperation: Operation {
    enum State: String {
        case ready, executing, finished
        fileprivate var keyPath: String { return "is\(rawValue.capitalized)" }
    }
    private let rwlockQueue = DispatchQueue(label: "com.czw.asyncoperation", attributes: .concurrent)
    private var _state: State = .ready
    var state: State {
        get { rwlockQueue.sync { return _state } }
        set {
            willChangeValue(forKey: newValue.keyPath)          // will for the NEW key only
            rwlockQueue.async(flags: .barrier) { self._state = newValue }
            didChangeValue(forKey: state.keyPath)              // did for the key read back after the barrier
        }
    }
    override open var isReady: Bool { return super.isReady && state == .ready }
    override open var isExecuting: Bool { return state == .executing }
    override open var isFinished: Bool { return state == .finished }
    override open var isAsynchronous: Bool { return true }
    override open func start() {
        if isCancelled { state = .finished; return }
        main()
        state = .executing
    }
    func finish() { state = .finished }
}

final class Fetch: AsyncOperation {
    override func main() { DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { self.finish() } }
}

final class VC: NSObject {                                    // stand-in for the UIViewController
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        print("keypath:\(keyPath ?? "") change:\(change?[.newKey] ?? "-")")
    }
}
let a = Fetch(), vc = VC(), queue = OperationQueue()
for k in ["isReady", "isExecuting", "isFinished"] { a.addObserver(vc, forKeyPath: k, options: .new, context: nil) }
queue.addOperations([a], waitUntilFinished: true)
print("finish")
for k in ["isReady", "isExecuting", "isFinished"] { a.removeObserver(vc, forKeyPath: k) }
