// kvo-run: --expect-errors
// source: nalexn.github.io "Quick Guide to KVO in Swift with code examples"
// (2019), the new-API listing as found: it does not compile on a Mac either,
// and the compiler's errors are the same.
import Foundation

class Person: NSObject {
    @objc dynamic var age: Int
    @objc dynamic var name: String
}

class PersonObserver {

    var kvoToken: NSKeyValueObservation?
    
    func observe(person: Person) {
        kvoToken = person.observe(\.age, options: .new) { (person, change) in
            guard let age = change.new else { return }
            print("New age is: \(age)")
        }
    }
    
    deinit {
        kvoToken?.invalidate()
    }
}
