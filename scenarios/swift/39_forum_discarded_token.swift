// source: Apple Developer Forums thread 79323, "How to observer key value in
// swift 4?", the question's code with its class closed. The accepted answer:
// name must be dynamic, and the token must be stored; a Mac prints nothing.
import Foundation

class Person:NSObject {
   @objc var name: String
    let age: Double
    init(name: String, age: Double) {
        self.name = name
        self.age = age
    }
}

let p = Person(name: "Ann", age: 30)
let _ = p.observe(\.name) { (object, change) in
          
      print("observed value is \(object.name)")
}
p.name = "Hello"
