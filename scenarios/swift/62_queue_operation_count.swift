// An OperationQueue subclass that observes its own operationCount and calls
// back when it reaches 0. Source: Mensaoers/PicData,
// PPCustomAsyncOperation/Classes/PPCustomOperationQueue.m, and gist
// jchudzynski/8007142 ("KVO of NSOperationQueue"), both Objective-C,
// transcribed (research notes §3.8). Each addOperation and each end changes
// operationCount once; the end is told on the finishing thread.
import Foundation

final class PPCustomOperationQueue: OperationQueue {
    var didFinishedOperationsBlock: ((PPCustomOperationQueue) -> Void)?
    override init() {
        super.init()
        addObserver(self, forKeyPath: "operationCount", options: [.new], context: nil)
    }
    deinit { removeObserver(self, forKeyPath: "operationCount") }
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        guard keyPath == "operationCount" else { return }
        print("operationCount ->", change?[.newKey] ?? "-")
        if operationCount == 0 { didFinishedOperationsBlock?(self) }
    }
}

let done = DispatchSemaphore(value: 0)
let q = PPCustomOperationQueue()
q.maxConcurrentOperationCount = 1
q.didFinishedOperationsBlock = { _ in print("Completed"); done.signal() }
q.addOperation { Thread.sleep(forTimeInterval: 0.05) }
q.addOperation { Thread.sleep(forTimeInterval: 0.05) }
_ = done.wait(timeout: .now() + 3)
