import Foundation

class Employee: NSObject { @objc dynamic var salary = 0 }
let e = Employee()
let key = #keyPath(Employee.salary)
print(key, #keyPath(Employee.salary))
