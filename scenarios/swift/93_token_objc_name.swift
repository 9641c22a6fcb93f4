// The token observe returns is the Swift overlay's
// `@objc(_NSKeyValueObservation) class NSKeyValueObservation` (Apple's
// documentation of NSKeyValueObservation shows the declaration): Objective-C
// names it `_NSKeyValueObservation` (its description, className,
// NSStringFromClass), Swift `NSKeyValueObservation` (type(of:)). Its address
// is its name, `token` (SPEC §3.1).
import Foundation
class A: NSObject { @objc dynamic var x = 0 }
let a = A()
let token = a.observe(\.x) { _, _ in }
print(token, token.className, type(of: token), NSStringFromClass(type(of: token)))
print(a.observationInfo as Any)
