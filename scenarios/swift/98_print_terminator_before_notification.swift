// Text printed with `terminator: ""` stays where it was printed: a
// notification (or a handler's print) that comes next starts its own line
// after it, instead of the held text joining the handler's line, indented
// as the handler's (issue 41).
import Foundation
class A: NSObject { @objc dynamic var x = 0 }
let a = A()
let t = a.observe(\.x) { _, _ in print("handler") }
print("before ", terminator: "")
a.x = 1
print("after")
print("a", terminator: "")
print("b")
// The last text, open when the program ends, is written, not lost.
print("the end", terminator: "")
