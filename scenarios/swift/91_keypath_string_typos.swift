// Key paths written as strings are checked as a scenario's are (SPEC §9):
// a key that no class of the program has, near one it has, gets a
// did-you-mean warning at the string, with what Apple does with it. A key
// the program posts by hand, passes as a forKey: (a UserDefaults key) or
// nobody's key resembles is left alone: the rewriter cannot know which
// class a receiver is, and a dictionary's keys are anybody's.
import Foundation
class Person: NSObject {
    @objc dynamic var name = "Ann"
    @objc dynamic var fullName: String { name }
    @objc class var keyPathsForValuesAffectingFullName: Set<String> { ["nmae"] }
    @objc dynamic var age = 1
    var status = 0 {
        willSet { willChangeValue(forKey: "statusText") }
        didSet { didChangeValue(forKey: "statusText") }
    }
}
class W: NSObject {
    override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        print(keyPath!)
    }
}
let p = Person(), w = W()
p.addObserver(w, forKeyPath: "nmae", options: [], context: nil)
p.addObserver(w, forKeyPath: "statusText", options: [], context: nil)
p.addObserver(w, forKeyPath: "name.lenght", options: [], context: nil)
UserDefaults.standard.set(1, forKey: "colour")
UserDefaults.standard.addObserver(w, forKeyPath: "colour", options: [], context: nil)
UserDefaults.standard.addObserver(w, forKeyPath: "theme", options: [], context: nil)
print(p.value(forKeyPath: "agee") as Any)
