// A queue of one at a time starts its ready operations by priority, then in
// the order they were added, and reads the priority when it starts one: an
// operation raised while it waits goes first, one lowered waits for the rest.
// An enum property's change carries no value in `observe` (SR-5872: the
// NSNumber KVO hands over does not cast to the enum), as on a Mac.
import Foundation

let queue = OperationQueue()
queue.maxConcurrentOperationCount = 1
queue.isSuspended = true
var started: [String] = []
var operations: [BlockOperation] = []
for name in ["a", "b", "c", "d", "e"] {
    let operation = BlockOperation { started.append(name) }
    operations.append(operation)
}
operations[4].queuePriority = .high
queue.addOperations(operations, waitUntilFinished: false)
operations[3].queuePriority = .veryHigh
operations[0].queuePriority = .low
let token = operations[2].observe(\.queuePriority, options: [.old, .new]) { _, change in
    print("c's priority:", change.oldValue as Any, "->", change.newValue as Any)
}
operations[2].queuePriority = .veryHigh
queue.isSuspended = false
queue.waitUntilAllOperationsAreFinished()
print(started.joined(separator: " "))
token.invalidate()
