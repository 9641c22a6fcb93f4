// KVC on optional object properties (`String?`, `NSNumber?`): value(forKey:)
// unwrapped with `!` prints the NSString and NSNumber bare; setValue(100,
// forKey: "age") stores an NSNumber; setValuesForKeys fills both from a
// dictionary whose Int value arrives as an NSNumber. Then the same reads
// without `!` print Optional(Tom), Optional(100).
// Source: chenyingjing/AppPrograms, KVCpracticeInSwift/KVCpracticeInSwift/main.swift
// (Swift 2). Changed: Swift 2 spellings updated (valueForKey ->
// value(forKey:), setValuesForKeysWithDictionary -> setValuesForKeys),
// `@objc` added to the properties (implicit in Swift 2), the dictionary typed
// [String: Any]; the last two prints are ours.
import Foundation

print("Hello, World!")

class People: NSObject {
    @objc var name: String?
    @objc var age: NSNumber?

    func initWithDictionary(dict: [String: Any]) {
        self.setValuesForKeys(dict)
    }
}

var people: People = People()
people.name = "Jack"
people.age = 10
print(people.name!)
print(people.age!)
print(people.value(forKey: "name")!)
print(people.value(forKey: "age")!)
people.setValue("Tom", forKey: "name")
people.setValue(100, forKey: "age")
print(people.name!)
print(people.age!)

var dict: [String: Any] = ["name": "Tim", "age": 15]
var tim: People = People()
tim.initWithDictionary(dict: dict)
print(tim.name!)
print(tim.age!)

print(people.value(forKey: "name") as Any, people.value(forKey: "age") as Any)
print(type(of: tim.value(forKey: "age")!), tim.value(forKey: "age") as? Int as Any)
