// Tony Parker (Foundation) on composing progress explicitly, Swift forums,
// "Pitch: Much better-performing, Swift-native Progress replacement"
// (forums.swift.org/t/5218/10): a discrete progress whose two halves are a
// child made with its parent and another object's ProgressReporting
// progress that had already done half of its work.
import Foundation

final class X: NSObject, ProgressReporting {
    let progress: Progress = {
        let p = Progress.discreteProgress(totalUnitCount: 10)
        p.completedUnitCount = 5
        return p
    }()
}

let x = X()
let p = Progress.discreteProgress(totalUnitCount: 2)
let childA = Progress(totalUnitCount: 4, parent: p, pendingUnitCount: 1)
p.addChild(x.progress, withPendingUnitCount: 1)
let t = p.observe(\.fractionCompleted, options: [.initial, .new]) { p, _ in
    print(String(format: "%.3f", p.fractionCompleted))
}
childA.completedUnitCount = 2
childA.completedUnitCount = 4
x.progress.completedUnitCount = 10
print("p.completedUnitCount =", p.completedUnitCount, "finished:", p.isFinished)
t.invalidate()
