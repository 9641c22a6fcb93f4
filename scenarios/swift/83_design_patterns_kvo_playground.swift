// observe(\.name) with [.initial, .new, .old] on an @objcMembers class: the
// initial call has no old value (`"nil"` from `??`), then one change; after
// the token is set to nil nothing more is printed. The playground's own
// comments at its end record what it printed.
// Source: yasinkbas/design-patterns, Behavioral/KVO.playground/Contents.swift.
// Changed: `import UIKit` is `import Foundation`; the commented-out kind
// checks are dropped; the last line is ours (the KVC read of the same
// property afterwards, an NSString inside an Optional).
import Foundation

@objcMembers class Person: NSObject {
    dynamic var name: String
    dynamic var age: Int

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
}

var yasin = Person(name: "Yasin", age: 23) //-> initial
var observer: NSKeyValueObservation? = yasin.observe(\.name, options: [.initial,.new,.old]) { (person, change) in
    print("changed or initialized name \"\(change.oldValue ?? "nil")\" with \"\(change.newValue!)\"")
}
yasin.name = "Akbas" //-> new
observer = nil
yasin.name = "something" //-> observer doesn't work anymore

//changed or initialized name "nil" with "Yasin"
//changed or initialized name "Yasin" with "Akbas"
print(yasin.value(forKey: "name") as Any, yasin.value(forKey: "age") as Any)
