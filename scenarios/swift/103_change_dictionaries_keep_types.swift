// Every observer gets the change as KVO bridged it: a number keeps its type
// (true is a __NSCFBoolean, 1 a __NSCFNumber) and a string its own Unicode
// form ("é" is one UTF-16 unit, "e\u{301}" two), even when two changes in a
// row are equal as Swift compares them, and two observers of one change get
// the same values.
import Foundation

class Box: NSObject {
    @objc dynamic var any: Any?
    @objc dynamic var name = ""
}

class Watcher: NSObject {
    let label: String
    init(_ label: String) { self.label = label }
    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        let new = change?[.newKey]
        if let text = new as? NSString {
            print(label, keyPath ?? "", text, "length", text.length)
        } else {
            print(label, keyPath ?? "", new ?? "nil", type(of: new ?? "nil"))
        }
    }
}

let box = Box()
let first = Watcher("first")
let second = Watcher("second")
for watcher in [first, second] {
    box.addObserver(watcher, forKeyPath: "any", options: [.new], context: nil)
    box.addObserver(watcher, forKeyPath: "name", options: [.new], context: nil)
}
box.any = true
box.any = 1
box.any = 1.5
box.any = -0.0
box.any = 0.0
box.name = "é"
box.name = "e\u{301}"
for watcher in [first, second] {
    box.removeObserver(watcher, forKeyPath: "any")
    box.removeObserver(watcher, forKeyPath: "name")
}
