import Foundation

class A: NSObject { @objc dynamic var x = 0 }
class Watcher: NSObject { func observe(person: A) {} }
let a = A()
Watcher().observe(person: a)
a.observe(\.x) { _, _ in }
_ = a.observe(\.x) { _, _ in }
