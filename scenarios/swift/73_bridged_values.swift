// SPEC §11.8: values that crossed into Objective-C print and cast as on a Mac.
// A String read by KVC is an NSString (bare inside Optional), a Float an
// NSNumber that remembers it is one (0.1), a CGPoint an NSValue that casts
// back, a dictionary, a set and an array Foundation's collections with
// Foundation's descriptions; CGFloat is a Double to KVC; nil stored through
// KVC into a non-optional String or collection reads back empty; the
// classic change dictionary's indexes are an NSIndexSet.
import Foundation

class Person: NSObject {
    @objc dynamic var name = "Ann"
    @objc dynamic var ratio: Float = 0.1
    @objc dynamic var scale: CGFloat = 1
    @objc dynamic var origin = CGPoint(x: 1, y: 2)
    @objc dynamic var scores: [String: Int] = ["b": 2, "a": 1]
    @objc dynamic var tags: Set<String> = ["x", "y"]
    @objc dynamic var items: [String] = ["one", "two words"]
    @objc dynamic var nick: String? = nil
}

class Watcher: NSObject {
    override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        print(keyPath ?? "", change?[.newKey] as Any)
        print(change ?? [:])
    }
}

let p = Person()
print(p.value(forKey: "name") as Any)
print(p.value(forKey: "ratio") as Any, type(of: p.value(forKey: "ratio")!))
print(p.value(forKey: "origin") as Any, p.value(forKey: "origin") as? CGPoint as Any)
print(p.value(forKey: "scores") as Any)
print(p.value(forKey: "tags") as Any)
print(p.value(forKey: "items") as Any)
print([p.value(forKey: "name")!, p.value(forKey: "ratio")!])
p.setValue(3.5, forKey: "scale")
print(p.scale)
let w = Watcher()
p.addObserver(w, forKeyPath: "name", options: [.new, .old], context: nil)
p.addObserver(w, forKeyPath: "items", options: [.new], context: nil)
p.name = "Bob"
p.mutableArrayValue(forKey: "items").insert("three", at: 1)
print(p.value(forKey: "name") as? String as Any, p.value(forKey: "name") as? NSString as Any)

class Defaults: NSObject {
    @objc dynamic var title = "Ann"
    @objc dynamic var list = ["a"]
    @objc dynamic var members: Set<String> = ["t"]
    @objc dynamic var age = 3
    override func setNilValueForKey(_ key: String) { print("setNilValueForKey", key) }
}
let d = Defaults()
d.setValue(nil, forKey: "title")
d.setValue(nil, forKey: "list")
d.setValue(nil, forKey: "members")
d.setValue(nil, forKey: "age")
print("[\(d.title)]", d.list, d.members, d.age)
print(type(of: d.value(forKey: "age")!), type(of: NSNumber(value: true)))
