// source: nalexn.github.io "Quick Guide to KVO in Swift with code examples"
// (2019), the old-API listing as found; Person's initial values and the use
// at the end are ours.
import Foundation

class Person: NSObject {
    @objc dynamic var age: Int = 0
    @objc dynamic var name: String = ""
}

class PersonObserver: NSObject {
    
    func observe(person: Person) {
        person.addObserver(self, forKeyPath: "age",
                           options: .new, context: nil)
    }
    
    override func observeValue(forKeyPath keyPath: String?,
                               of object: Any?,
                               change: [NSKeyValueChangeKey : Any]?,
                               context: UnsafeMutableRawPointer?) {
        if keyPath == "age",
           let age = change?[.newKey] {
             print("New age is: \(age)")
        }
    }
}

let person = Person()
let observer = PersonObserver()
observer.observe(person: person)
person.age = 30
person.setValue(31, forKey: "age")
person.removeObserver(observer, forKeyPath: "age")
