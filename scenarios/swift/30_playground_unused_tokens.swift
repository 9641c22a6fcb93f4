// source: ericyu423/CodePatternReference kvo.md, examples 1 and 2 as found.
// Its console block shows every change because a playground keeps each
// expression's result; compiled (`swift file.swift` on a Mac) an unused token
// ends at once, so only .initial fires.
import Foundation

        @objc class Person: NSObject {
            @objc dynamic var name = "old name"
        }
        let person = Person()

        person.observe(\Person.name, options: .old) { person, value in
            print("I am called \(person.name)")
            print("I was called \(String(describing: value.oldValue))")

        }
        person.name = "new name"

          class CounterModel : NSObject {
              @objc dynamic var value = 10
              @objc dynamic var messages = [String]()
          }
          var model = CounterModel()

          model.observe(\CounterModel.value, options: [.initial]) { (model, change) in
              print("my value \(model.value)")
          }

          model.value = 11
          model.value = 12
          model.value = 13
          model.value = 16
