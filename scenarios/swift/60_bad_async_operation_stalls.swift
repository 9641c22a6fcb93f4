// An asynchronous Operation that changes its state without KVO keeps its slot
// on a serial queue forever: only the first of three ever runs, as the Stack
// Overflow question "OperationQueue with custom maxConcurrentOperationCount
// does not pick up / execute all operations in the queue, after finishing
// first operation" records (research notes §3.5; the waits shortened).
import Foundation

final class MyOp: Operation {
    private enum State { case ready, started, cancelled, finished }
    private var state: State = .ready            // no willChange/didChange anywhere
    private let id: Int
    init(id: Int) { self.id = id }
    override var isAsynchronous: Bool { true }
    override var isReady: Bool { state == .ready }
    override var isExecuting: Bool { state == .started }
    override var isFinished: Bool { state == .finished || state == .cancelled }
    override var isCancelled: Bool { state == .cancelled }
    override func start() {
        guard state == .ready else { return }
        state = .started
        print("started \(id)")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            self.state = .finished
            print("finished \(self.id)")
        }
    }
}

let queue = OperationQueue()
queue.name = "my.operationQueue"
queue.maxConcurrentOperationCount = 1
for i in 0..<3 { queue.addOperation(MyOp(id: i)) }
Thread.sleep(forTimeInterval: 0.8)
print("operationCount after 0.8 s:", queue.operationCount)
