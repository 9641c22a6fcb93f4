// debugPrint of an NSKeyValueObservedChange names its types in full, as
// String(reflecting:) does on a Mac (SPEC §11.8):
// `Foundation.NSKeyValueObservedChange<Swift.Int>`, where print shows
// `NSKeyValueObservedChange<Int>`.
import Foundation
class A: NSObject { @objc dynamic var x = 0 }
let a = A()
let t = a.observe(\.x, options: [.new]) { _, c in debugPrint(c); print(c) }
a.x = 1
print(\A.x, [NSKeyValueObservingOptions.new])
class B: NSObject { @objc dynamic var name: String? = nil; @objc dynamic var peer: A? = nil }
let b = B()
let u = b.observe(\.name, options: [.new]) { _, c in debugPrint(c) }
let v = b.observe(\.peer, options: [.new]) { _, c in debugPrint(c.kind, c.isPrior) }
b.name = "x"
b.peer = a
