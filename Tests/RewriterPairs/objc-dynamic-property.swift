import Foundation

class Account: NSObject {
    @objc dynamic var balance = 0.0
    @objc dynamic var owner: String = "alice"
}
