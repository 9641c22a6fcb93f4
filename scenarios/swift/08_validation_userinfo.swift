// Apple's KVC guide validates an employee's raise and throws an NSError
// whose userInfo carries the message, written as Swift writes it. An error
// without a description gets Foundation's generic text.
import Foundation

class Employee: NSObject {
    @objc dynamic var raise: Double = 0

    @objc func validateRaise(_ value: Any?) throws -> Any? {
        guard let number = value as? Double else {
            throw NSError(domain: "UserInputValidationErrorDomain", code: 0,
                          userInfo: [NSLocalizedDescriptionKey: "An employee's raise must be a number."])
        }
        if number < 0 {
            throw NSError(domain: "UserInputValidationErrorDomain", code: 1, userInfo: nil)
        }
        return number
    }
}

let employee = Employee()
let token = employee.observe(\.raise, options: [.new]) { e, change in
    print("raise is now", change.newValue ?? 0)
}
for candidate in ["a lot", 0.05, -1.0] as [Any] {
    do {
        let valid = try employee.validateValue(candidate, forKey: "raise")
        employee.raise = valid as! Double
    } catch {
        print("rejected:", error.localizedDescription, "(code \(error.code))")
    }
}
