// B7 compiled (SPEC §11.0): one object observed for n different keys (one
// observer, [.new]), each key set once through setValue(_:forKey:); the keys
// are undefined, so setValue(_:forUndefinedKey:) stores the value and sends
// the change itself. Run with --quiet: prints only its count (n).
import Foundation

class Bag: NSObject {
    // A reference: a stored Swift dictionary would get the rewriter's
    // willSet (for its bypasses-KVO warning), and a property with a willSet
    // copies its whole value at every in-place mutation.
    let storage = NSMutableDictionary()
    override func value(forUndefinedKey key: String) -> Any? { storage[key] }
    override func setValue(_ value: Any?, forUndefinedKey key: String) {
        willChangeValue(forKey: key)
        storage[key] = value
        didChangeValue(forKey: key)
    }
}

class Watcher: NSObject {
    var count = 0
    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        count += 1
    }
}

let n = 25000
let bag = Bag()
let watcher = Watcher()
for i in 0..<n {
    bag.addObserver(watcher, forKeyPath: "k\(i)", options: [.new], context: nil)
}
for i in 0..<n {
    bag.setValue(i, forKey: "k\(i)")
}
for i in 0..<n {
    bag.removeObserver(watcher, forKeyPath: "k\(i)")
}
print(watcher.count)
