// The classic observer prints `change?[.newKey] as Any`: the Int arrives as
// an NSNumber inside an Optional, `observeValue Optional(20)`, for a Swift
// assignment and for setValue(25, forKey:) alike; then the block form prints
// `change.newValue as Any`, which is Swift's own Int? (`Optional(20)`, the
// same text). Source: the course notes "从OC到Swift(5)- 动态性,KVC\KVO"
// (MJ's Swift course; as reposted at https://www.e-learn.cn/tag/oc?page=12):
// Observer/Person/`p.age = 20`/`p.setValue(25, forKey: "age")`, then the
// "block 方式的KVO" Person. Changed: the second Person is renamed Person2 so
// both fit one file; the deinit's removeObserver is kept.
import Foundation

class Observer: NSObject {
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey : Any]?,
                               context: UnsafeMutableRawPointer?) {
        print("observeValue", change?[.newKey] as Any)
    }
}

class Person: NSObject {
    @objc dynamic var age: Int = 0
    var observer: Observer = Observer()
    override init() {
        super.init()
        self.addObserver(observer, forKeyPath: "age", options: .new, context: nil)
    }
    deinit {
        self.removeObserver(observer, forKeyPath: "age")
    }
}

var p = Person()
// observeValue Optional(20)
p.age = 20
// observeValue Optional(25)
p.setValue(25, forKey: "age")

class Person2: NSObject {
    @objc dynamic var age: Int = 0
    var observation: NSKeyValueObservation?
    override init() {
        super.init()
        observation = observe(\Person2.age, options: .new) { (person, change) in
            print(change.newValue as Any)
        }
    }
}

var p2 = Person2()
// Optional(20)
p2.age = 20
// Optional(25)
p2.setValue(25, forKey: "age")
