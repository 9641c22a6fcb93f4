// SPEC §11.8: what Objective-C hands Swift casts `as? NSObject`, `as!
// NSObject` and `is NSObject` as on a Mac, where NSNumber and NSString
// descend from NSObject: the common `change?[.newKey] as? NSObject` compare
// of old and new succeeds, prints the value, and `==` is `isEqual`. Also one
// name from creation on for `let p = P(), w = W()` (SPEC §3.1).
import Foundation
class P: NSObject {
    @objc dynamic var age = 3
    @objc dynamic var name = "Ann"
}
class W: NSObject {
    override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        if let new = change?[.newKey] as? NSObject, let old = change?[.oldKey] as? NSObject {
            print(keyPath!, old, "->", new, new == old, new.isEqual(old), object is NSObject)
        }
    }
}
let p = P(), w = W()
p.addObserver(w, forKeyPath: "age", options: [.new, .old], context: nil)
p.addObserver(w, forKeyPath: "name", options: [.new, .old], context: nil)
p.age = 4
p.name = "Bob"
p.name = "Bob"
let n = p.value(forKey: "age") as! NSObject
print(n, Optional(n), [n], "abc" as? NSObject as Any, p.value(forKey: "name") is NSObject)
p.setValue(n, forKey: "age")
print(p.age)
