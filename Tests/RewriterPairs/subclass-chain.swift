import Foundation

class Base: NSObject {
    @objc dynamic var id = 0
}
class Derived: Base {
    @objc dynamic var extra = ""
}
class Plain {
    var notKVO = 1
}
