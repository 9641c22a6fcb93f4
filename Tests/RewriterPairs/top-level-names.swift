import Foundation

class A: NSObject { @objc dynamic var x = 0 }
let a = A(); let b = A()
var c = A()
let (d, e) = (A(), A())
let t = a.observe(\.x) { _, _ in }
a.x = 1; b.x = 2
