import Foundation
let change: [NSKeyValueChangeKey: Any] = [.newKey: 1]
if let new = change[.newKey] as? NSObject, change[.oldKey] is NSObject { print(new) }
let forced = change[.newKey] as! NSObject
print(change[.newKey] as? NSObject as Any, forced as NSObject, change[.newKey] as? NSNumber as Any)
let a = NSObject(), b = NSObject()
