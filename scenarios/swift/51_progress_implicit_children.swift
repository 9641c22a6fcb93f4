// Implicit children (Apple's Progress overview): between
// becomeCurrent(withPendingUnitCount:) and resignCurrent(), a progress
// created without a parent becomes the current one's child for those
// units; "If you don't create any suboperation progress objects between the
// calls ... the containing progress object automatically updates its
// completedUnitCount by adding the pending units." Cancelling the parent
// cancels its children.
import Foundation

let overall = Progress(totalUnitCount: 10)
let fraction = overall.observe(\.fractionCompleted, options: [.new]) { _, change in
    print("overall:", change.newValue!)
}

func download() {
    let step = Progress(totalUnitCount: 4)
    print("current while downloading:", Progress.current() === overall)
    step.completedUnitCount = 2
    step.completedUnitCount = 4
}

overall.becomeCurrent(withPendingUnitCount: 6)
download()
overall.resignCurrent()

overall.becomeCurrent(withPendingUnitCount: 4)
print("no child made")
overall.resignCurrent()
print("done:", overall.completedUnitCount, "of", overall.totalUnitCount, overall.isFinished)

let job = Progress(totalUnitCount: 2)
let part = Progress(totalUnitCount: 1, parent: job, pendingUnitCount: 1)
let cancelled = part.observe(\.isCancelled, options: [.old, .new]) { progress, change in
    print("part.isCancelled:", change.oldValue!, "->", change.newValue!)
}
job.cancel()
print(job.isCancelled, part.isCancelled)
