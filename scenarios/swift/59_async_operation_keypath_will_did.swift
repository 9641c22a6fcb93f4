// willChangeValue(for:)/didChangeValue(for:) with a subclass's key path,
// observed with observe(\.isFinished): both name the Objective-C key
// `finished`, as on a Mac. Source: gist
// zeitschlag/388d820946e6c8d9e499d21987366e64 (zeitschlag.net/asyncoperation);
// its Thread.detachNewThreadSelector(#selector(main), …) is
// Thread.detachNewThread { self.main() } here (#selector needs Objective-C),
// the observer is added (research notes §3.4). Swift warns, as on a Mac, that
// the overriding isFinished is not @objc dynamic.
import Foundation

class AsyncOperation: Operation {
    private var asyncOperationFinished = false
    private var asyncOperationExecuting = false
    override var isAsynchronous: Bool { true }
    override var isFinished: Bool { asyncOperationFinished }
    override var isExecuting: Bool { asyncOperationExecuting }

    override func start() {
        if isCancelled {
            willChangeValue(for: \AsyncOperation.isFinished)
            asyncOperationFinished = true
            didChangeValue(for: \AsyncOperation.isFinished)
            return
        }
        willChangeValue(for: \AsyncOperation.isExecuting)
        asyncOperationExecuting = true
        Thread.detachNewThread { self.main() }
        didChangeValue(for: \AsyncOperation.isExecuting)
    }
    override func main() {
        Thread.sleep(forTimeInterval: 0.1)
        willChangeValue(for: \AsyncOperation.isExecuting)
        willChangeValue(for: \AsyncOperation.isFinished)
        asyncOperationExecuting = false
        asyncOperationFinished = true
        didChangeValue(for: \AsyncOperation.isExecuting)
        didChangeValue(for: \AsyncOperation.isFinished)
    }
}

let op = AsyncOperation()
let tok = op.observe(\.isFinished, options: [.new]) { o, c in print("isFinished:", c.newValue ?? o.isFinished) }
let q = OperationQueue()
q.addOperation(op)
op.waitUntilFinished()
Thread.sleep(forTimeInterval: 0.05)
print("operationCount:", q.operationCount)
tok.invalidate()
