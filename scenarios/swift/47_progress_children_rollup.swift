// Progress with children: a parent's fractionCompleted rolls up its
// children's (SPEC §11.7). The values are swift-corelibs-foundation's own
// assertions (Tests/Foundation/TestProgress.swift,
// test_childrenAffectFractionCompleted_explicit: 0.05, 0.10, 0.55); the
// observers are added. A child's change moves the parent's fraction; when a
// child finishes, its pending units become the parent's completedUnitCount.
import Foundation

let parent = Progress(parent: nil)
parent.totalUnitCount = 100
let fraction = parent.observe(\.fractionCompleted, options: [.new]) { _, change in
    print("parent.fractionCompleted =", change.newValue!)
}
let completed = parent.observe(\.completedUnitCount, options: [.new]) { _, change in
    print("parent.completedUnitCount =", change.newValue!)
}

let child1 = Progress(totalUnitCount: 100)
parent.addChild(child1, withPendingUnitCount: 10)
child1.completedUnitCount = 50
child1.completedUnitCount = 100
let child2 = Progress(totalUnitCount: 100)
parent.addChild(child2, withPendingUnitCount: 90)
child2.completedUnitCount = 50
print("final:", parent.fractionCompleted, parent.completedUnitCount, parent.isFinished)
print(parent)
print(child2.localizedDescription!, "/", child2.localizedAdditionalDescription!)
