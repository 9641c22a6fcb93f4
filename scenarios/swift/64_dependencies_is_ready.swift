// A dependency's end makes the operation that waits for it ready: isReady
// goes false -> true on the finishing thread, before the dependent starts
// (Apple's addDependency(_:) page; swift-corelibs-foundation's observeValue).
// And cancel() makes a waiting operation ready, so its queue clears it out
// without running it. Source: swift-corelibs-foundation
// Tests/Foundation/TestOperationQueue.swift, test_ExecutionOrder and
// test_CancelDependency; the observer is added (research notes §3.10).
import Foundation

let a = BlockOperation { print("A runs") }
let b = BlockOperation { print("B runs") }
b.addDependency(a)
let t = b.observe(\.isReady, options: [.old, .new]) { _, c in
    print("b.isReady \(c.oldValue.map(String.init(describing:)) ?? "?") -> \(c.newValue.map(String.init(describing:)) ?? "?")")
}
print("b.isReady before:", b.isReady, "deps:", b.dependencies.count)
let q = OperationQueue()
q.maxConcurrentOperationCount = 1
q.addOperations([b, a], waitUntilFinished: true)
t.invalidate()

// cancel() makes a waiting operation ready (corelibs test_CancelDependency)
let c1 = BlockOperation { print("never") }
let c2 = BlockOperation { print("c2 runs") }
c2.addDependency(c1)
c1.cancel()
OperationQueue().addOperations([c1, c2], waitUntilFinished: true)
