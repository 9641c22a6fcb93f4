// Key-value validation with the signature Apple documents for Swift: the
// validate<Key> method takes the value by pointer, may replace it, and throws
// to reject it; validateValue(_:forKey:) finds it by name.
import Foundation

class Employee: NSObject {
    @objc dynamic var name: String = ""

    @objc func validateName(_ ioValue: AutoreleasingUnsafeMutablePointer<AnyObject?>) throws {
        guard let name = ioValue.pointee as? String, !name.isEmpty else {
            throw NSError(domain: "EmployeeErrorDomain", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: "A name is required."])
        }
        ioValue.pointee = name.capitalized as NSString
    }
}

let employee = Employee()
for candidate in ["ann lee", ""] {
    var value: AnyObject? = candidate as NSString
    do {
        try employee.validateValue(&value, forKey: "name")
        employee.name = value as? String ?? ""
        print("accepted:", employee.name)
    } catch {
        print("rejected:", error.localizedDescription)
    }
}
var unchecked: AnyObject? = "anything" as NSString
try employee.validateValue(&unchecked, forKey: "nickname")   // no validateNickname: valid as it is
print(unchecked as? String ?? "?")
