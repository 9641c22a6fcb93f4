// What programs rely on from OperationQueue besides KVO (SPEC §11.7), on a
// suspended serial queue so that the order is certain: the ready operations
// start by queuePriority, then in the order added (Apple's queuePriority
// page: a value between the constants moves toward .normal); a barrier block
// runs after every operation added before it and before any added after
// (addBarrierBlock); cancelAllOperations() cancels the rest, which then end
// without running (start() of a cancelled operation posts isFinished only);
// isSuspended is observable under its Objective-C name `suspended`.
// Then cancel() of an operation outside any queue: cancelled and ready, not
// finished (swift-corelibs-foundation's test_CancelOutOfQueue, research notes
// §3.22; Apple's cancel() page says "marks the object as finished", which
// its own start() contradicts: the choice is stated in SPEC §11.7).
import Foundation

let queue = OperationQueue()
queue.maxConcurrentOperationCount = 1
queue.isSuspended = true
let suspension = queue.observe(\.isSuspended, options: [.old, .new]) { _, change in
    print("suspended:", change.oldValue!, "->", change.newValue!)
}

let low = BlockOperation { print("low") }
low.queuePriority = .low
let normal = BlockOperation { print("normal") }
let high = BlockOperation { print("high") }
high.queuePriority = Operation.QueuePriority(rawValue: 6)!
print("6 becomes", high.queuePriority.rawValue)
queue.addOperations([low, normal, high], waitUntilFinished: false)
queue.addBarrierBlock { print("barrier: after the three") }
let last = BlockOperation { print("after the barrier") }
queue.addOperation(last)
print("queued:", queue.operationCount)
queue.isSuspended = false
queue.waitUntilAllOperationsAreFinished()
print("all done:", queue.operationCount, low.isFinished, last.isFinished)

queue.isSuspended = true
let skipped = BlockOperation { print("never runs") }
let finishedToken = skipped.observe(\.isFinished, options: [.new]) { op, change in
    print("skipped finished:", change.newValue!, "cancelled:", op.isCancelled)
}
let executingToken = skipped.observe(\.isExecuting, options: [.new]) { _, change in
    print("skipped executing:", change.newValue!)
}
queue.addOperation(skipped)
queue.cancelAllOperations()
queue.isSuspended = false
queue.waitUntilAllOperationsAreFinished()

let alone = Operation()
let readyToken = alone.observe(\.isCancelled, options: [.new]) { _, change in
    print("alone cancelled:", change.newValue!)
}
alone.cancel()
print("isCancelled=\(alone.isCancelled) isExecuting=\(alone.isExecuting) isFinished=\(alone.isFinished) isReady=\(alone.isReady)")

