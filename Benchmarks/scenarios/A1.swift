// A1 compiled: 2,000 `add`s through mutableArrayValue(forKey:) of an
// [Int] property, one iteration of the proxy, and 2,000 `add`s through
// mutableSetValue(forKey:) of a Set<String> property. Each access reads the
// whole property, as Apple's proxy does for a property without indexed
// accessors; before issue 43's seventh part each read also bridged every
// element through an NSArray or NSSet.
import Foundation

class Box: NSObject {
    @objc dynamic var items: [Int] = []
    @objc dynamic var tags: Set<String> = []
}

let n = 2000
let box = Box()
let items = box.mutableArrayValue(forKey: "items")
for i in 0..<n { items.add(i) }
var total = 0
for case let x as Int in items { total += x }
let tags = box.mutableSetValue(forKey: "tags")
for i in 0..<n { tags.add("t\(i)") }
print(total, box.items.count, box.tags.count)
