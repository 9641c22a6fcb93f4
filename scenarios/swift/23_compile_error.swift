// A type error is the compiler's, at the user's own line and column.
import Foundation

class Account: NSObject {
    @objc dynamic var balance: Double = 0
}

let acct = Account()
acct.balance = "a lot"
print(acct.balance)
