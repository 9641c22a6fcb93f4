import Foundation
class Person: NSObject {
    @objc dynamic var first = "Ann"
}
extension Person {
    @objc var greeting: String { "Hi " + first }
    @objc class func keyPathsForValuesAffectingGreeting() -> Set<String> { ["first"] }
}
class Box<T>: NSObject {}
extension Box {
    @objc var label: String { "box" }
}
print(#keyPath(Person.greeting))
