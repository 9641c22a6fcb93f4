import Foundation

class Account: NSObject {
    @objc var balance = 0.0
    var note = ""
}
let a = Account()
a.balance = 10
