// OQ compiled (SPEC §11.0, §11.7): 10,000 operations on an OperationQueue of
// at most 4 at once, each observed on isFinished by one observe token ([.new])
// that counts; the queue is waited for. 10,000 notifications. Run with
// --quiet: prints only its count, as OQ.m does.
import Foundation

final class Work: Operation {
    override func main() {}
}

let n = 10000
let queue = OperationQueue()
queue.maxConcurrentOperationCount = 4
var finished = 0
var operations: [Work] = []
var tokens: [NSKeyValueObservation] = []
for _ in 0..<n {
    let work = Work()
    tokens.append(work.observe(\.isFinished, options: [.new]) { _, change in
        if change.newValue == true { finished += 1 }
    })
    operations.append(work)
}
queue.addOperations(operations, waitUntilFinished: true)
for token in tokens { token.invalidate() }
print(finished)
