// value(forKey:) unwrapped with `if let` prints the NSString bare (`Fred`;
// the notes' `// "Fred"` comment quotes it, the console does not), by
// #keyPath and by string; the Int is an NSNumber (`0`). Then a key path that
// continues into the NSString itself, as in selim1377's blog
// (`[person valueForKeyPath:@"child.name.uppercaseString"]; // JANE DOE`):
// NSString answers KVC for its own methods, `length` and `uppercaseString`.
// Sources: amelial9/milynotes, docs/INFO449/keyvaluecoding.md (course notes,
// Person/p/pkeyPath as written); the key paths through the string follow
// http://selim1377.github.io/2016/05/09/kvc-and-collection-operators.html
// (Objective-C there; `child.name` is `firstName` here).
// Changed: the notes' fragments are one program; the last three prints are ours.
import Foundation

class Person : NSObject {
  @objc dynamic var firstName = ""
  @objc dynamic var lastName = ""
  @objc dynamic var age = 0
}
let p = Person()
p.firstName = "Fred"

let pkeyPath = #keyPath(Person.firstName)
if let value = p.value(forKey: pkeyPath) {
  print(value)  // "Fred"
}
if let value = p.value(forKey: "firstName") {
  print(value)  // "Fred"
}

print(p.value(forKey: "lastName") as Any, p.value(forKey: "age") as Any)
print(p.value(forKeyPath: "firstName.uppercaseString") as Any)
print(p.value(forKeyPath: "firstName.length") as Any)
