// Progress's documented rules, probed one by one (Apple's pages for
// isIndeterminate, isFinished, fractionCompleted and the overview): 0 of 0
// is indeterminate with a fraction of 0.0; isFinished and isIndeterminate
// are observable and follow the unit counts (dependent keys: their
// observers hear every change of the counts); a new total rescales the
// children's shares; pause() and resume() reach the children; KVC reads and
// writes the counts, and a KVC set notifies once.
import Foundation

let p = Progress(totalUnitCount: 0)
print(p.isIndeterminate, p.fractionCompleted, p.isFinished)
let states = p.observe(\.isFinished, options: [.new]) { _, c in print("isFinished ->", c.newValue!) }
let indeterminate = p.observe(\.isIndeterminate, options: [.new]) { _, c in print("isIndeterminate ->", c.newValue!) }
p.totalUnitCount = 4
p.completedUnitCount = 4
p.totalUnitCount = 8
print(p.fractionCompleted, p.localizedDescription!, p.localizedAdditionalDescription!)

let parent = Progress(totalUnitCount: 10)
let child = Progress(totalUnitCount: 2, parent: parent, pendingUnitCount: 5)
child.completedUnitCount = 1
print(parent.fractionCompleted)
parent.totalUnitCount = 20
print(parent.fractionCompleted)
let paused = child.observe(\.isPaused, options: [.new]) { _, c in print("child paused ->", c.newValue!) }
parent.pause()
parent.resume()
p.localizedDescription = "Copying"
print(p.localizedDescription!)
p.setUserInfoObject(3, forKey: .fileCompletedCountKey)
print(p.userInfo[.fileCompletedCountKey] ?? "none")
print(p.value(forKey: "fractionCompleted")!, p.value(forKeyPath: "completedUnitCount")!)
p.setValue(8, forKey: "completedUnitCount")
print(p.isFinished)
