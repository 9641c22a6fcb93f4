// Sets of String and Int properties, changed through mutableSetValue(forKey:)
// and KVC: each mutation reads the property and stores a new set, as Apple's
// proxy does for a property without set accessors, and notifies with the
// objects added or removed. The proxy has NSMutableSet's methods: it
// iterates, answers contains(_:) and member(_:), and its bulk methods take a
// set (or an array) and are one change each.
import Foundation

class Tagged: NSObject {
    @objc dynamic var tags: Set<String> = []
    @objc dynamic var codes: Set<Int> = [7]
}

let item = Tagged()
let token = item.observe(\.tags, options: [.old, .new]) { _, change in
    print("tags", change.kind.rawValue, (change.oldValue ?? []).sorted(), "->", (change.newValue ?? []).sorted())
}
let tags = item.mutableSetValue(forKey: "tags")
for name in ["red", "green", "blue"] { tags.add(name) }
tags.remove("green")
print(item.tags.sorted(), tags.count, tags.contains("blue"), tags.contains("green"))
print((tags.member("red") as? String) ?? "none", tags.allObjects.count)
var seen: [String] = []
for case let tag as String in tags { seen.append(tag) }
print(seen.sorted())
tags.union(Set<AnyHashable>(["gold", "red"]))
tags.minus(["blue", "white"])
tags.intersect(["gold", "teal"])
tags.setSet(["x", "y"])
tags.removeAllObjects()
print(item.tags, tags.count)

let codes = item.mutableSetValue(forKey: "codes")
codes.add(3)
codes.addObjects(from: [4, 5])
item.setValue(Set([1, 2]), forKey: "codes")
print(item.codes.sorted(), codes.count)
token.invalidate()
