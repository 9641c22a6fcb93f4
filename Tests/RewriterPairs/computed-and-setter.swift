import Foundation

class Person: NSObject {
    @objc dynamic var first = "Ada"
    @objc dynamic var last = "Lovelace"
    @objc var full: String { "\(first) \(last)" }
    private var _age = 0
    @objc var age: Int {
        get { _age }
        set {
            willChangeValue(forKey: "age")
            _age = newValue
            didChangeValue(forKey: "age")
        }
    }
}
