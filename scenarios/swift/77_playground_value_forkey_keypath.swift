// value(forKey:) of @objc `let` properties, printed inside a string
// interpolation after `if let`: the Int is an NSNumber (`1`), the String an
// NSString (`Batman`). The playground's own call asks value(forKey:) for
// "address.city", which is a key path, not a key: its author left
// "TODO: Fix runtime error" and commented the call out.
// Source: saurabh1088/swift-playgrounds, KVCAndKVO.playground/Contents.swift
// (its doc comment quotes the Mac's NSUnknownKeyException for a key that is
// not @objc). Changed: `import UIKit` is `import Foundation`; the fix the TODO
// asks for (value(forKeyPath:)) runs first as a second function, then the
// author's own function is called as written and raises, as on a Mac:
// `[<main.Employee 0x…> valueForUndefinedKey:]: … for the key address.city.`
import Foundation

class Employee: NSObject {
    @objc let id: Int
    @objc let name: String
    @objc let address: Address

    init(id: Int, name: String, address: Address) {
        self.id = id; self.name = name; self.address = address
    }
}

class Address: NSObject {
    @objc let zipcode: Int
    @objc let addressLine1: String
    @objc let street: String
    @objc let city: String
    @objc let country: String

    init(zipcode: Int, addressLine1: String, street: String, city: String, country: String) {
        self.zipcode = zipcode; self.addressLine1 = addressLine1
        self.street = street; self.city = city; self.country = country
    }
}

let address = Address(zipcode: 100, addressLine1: "Wayn Manor", street: "Dark Street",
                      city: "Gotham", country: "USA")
let employee = Employee(id: 1, name: "Batman", address: address)

func exampleKeyPathFixed() {
    print(employee.value(forKey: "name") as Any, employee.value(forKeyPath: "address.zipcode") as Any)
    if let employeeCity = employee.value(forKeyPath: "address.city") {
        print("City : \(employeeCity)")
    }
}

func exampleKeyValueCodingComplaintClass() {
    if let employeeName = employee.value(forKey: "name"),
       let employeeId = employee.value(forKey: "id"),
        let employeeCity = employee.value(forKey: "address.city") {
        print("Employee details ::")
        print("ID : \(employeeId)")
        print("Name : \(employeeName)")
        print("City : \(employeeCity)")
    }
}

exampleKeyPathFixed()
exampleKeyValueCodingComplaintClass()
