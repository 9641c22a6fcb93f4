// Arrays of Int, Double, Bool and String properties, changed through
// mutableArrayValue(forKey:) and KVC: each mutation reads the property and
// stores a new array, as Apple's proxy does for a property without indexed
// accessors. Elements of another type (an Int in a [Double], set through
// KVC) are converted as Objective-C's bridging converts them.
import Foundation

class Sample: NSObject {
    @objc dynamic var counts: [Int] = []
    @objc dynamic var levels: [Double] = [0.5]
    @objc dynamic var flags: [Bool] = []
    @objc dynamic var names: [String] = ["a"]
}

let sample = Sample()
let token = sample.observe(\.counts, options: [.old, .new]) { _, change in
    print("counts", change.kind.rawValue, change.oldValue ?? [], "->", change.newValue ?? [])
}
let counts = sample.mutableArrayValue(forKey: "counts")
for n in 1...3 { counts.add(n * 10) }
counts.insert(5, at: 0)
counts.removeObject(at: 2)
counts.replaceObject(at: 0, with: 7)
var total = 0
for case let n as Int in counts { total += n }
print(sample.counts, counts.count, total)

let levels = sample.mutableArrayValue(forKey: "levels")
levels.add(1.25)
sample.setValue([1, 2.5] as [Any], forKey: "levels")
print(sample.levels, sample.value(forKey: "levels") as Any)

let flags = sample.mutableArrayValue(forKey: "flags")
flags.add(true)
flags.add(false)
print(sample.flags, flags.count)

let names = sample.mutableArrayValue(forKey: "names")
names.add("b")
names.insert("c", at: 1)
names.remove("a")
print(sample.names, names)
token.invalidate()
