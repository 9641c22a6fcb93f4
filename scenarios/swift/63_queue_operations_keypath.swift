// A queue that observes its own `operations` with a Swift key path and calls
// back when it is empty. Source: gpkash/Chinook,
// Chinook/Classes/Operations/CompletableOperationQueue.swift (research notes
// §3.9). `operations` changes by setting (kind 1), as a recorded Mac log shows.
import Foundation

public class CompletableOperationQueue: OperationQueue {
    public var operationQueueFinished: (() -> Void)?
    private var operationsObserver: NSKeyValueObservation?
    override init() {
        super.init()
        operationsObserver = observe(\.operations, changeHandler: { [weak self] _, _ in
            guard let self else { return }
            guard self.operations.isEmpty else { return }
            self.operationQueueFinished?()
        })
    }
}

let sem = DispatchSemaphore(value: 0)
let q = CompletableOperationQueue()
q.operationQueueFinished = { print("queue finished"); sem.signal() }
q.addOperation { print("work") }
_ = sem.wait(timeout: .now() + 2)
