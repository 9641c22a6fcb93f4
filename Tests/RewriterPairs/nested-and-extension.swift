import Foundation

enum Outer {
    class Inner: NSObject {
        @objc dynamic var level = 0
    }
}
extension Outer.Inner {
    func raise() { level += 1 }
}
struct Point { var x = 0 }
