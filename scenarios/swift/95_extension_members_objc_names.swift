// Issue 41: `@objc` members declared in an extension are KVC/KVO keys, as
// on a Mac (real code keeps computed keys and their
// keyPathsForValuesAffecting… in extensions), and `@objc(name)` gives a
// property the key Objective-C knows it by.
import Foundation
class Person: NSObject {
    @objc dynamic var first = "Ann"
    @objc dynamic var last = "Lee"
}
extension Person {
    @objc dynamic var full: String { first + " " + last }
    @objc class var keyPathsForValuesAffectingFull: Set<String> { ["first", "last"] }
}
extension UserDefaults {
    @objc dynamic var theme: String { string(forKey: "theme") ?? "light" }
}
let p = Person()
let t = p.observe(\.full, options: [.new]) { _, c in print("full", c.newValue!) }
p.first = "Bo"
print(p.value(forKey: "full") as Any)
let d = UserDefaults.standard
let u = d.observe(\.theme, options: [.new]) { _, c in print("theme", c.newValue!) }
d.set("dark", forKey: "theme")
class Badge: NSObject {
    @objc(displayName) dynamic var name = "Ann"
}
let b = Badge()
let bt = b.observe(\.name, options: [.new]) { _, c in print("name", c.newValue!) }

b.name = "Bo"
print(b.value(forKey: "displayName") as Any)
b.setValue("Cy", forKey: "displayName")
print(b.name)
