import Foundation

class Department: NSObject {
    @objc dynamic var employees: [String] = []
    @objc func countOfEmployees() -> Int { employees.count }
    @objc func objectInEmployeesAtIndex(_ index: Int) -> String { employees[index] }
    @objc func validateName(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>) throws {}
}
