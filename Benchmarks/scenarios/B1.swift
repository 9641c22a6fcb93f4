// B1 compiled (SPEC §11.0): 1,000,000 sets of an @objc dynamic property with
// one observe token [.new, .old]. Run with --quiet: prints only its count.
import Foundation

class Account: NSObject {
    @objc dynamic var balance: Int = 0
}

let n = 1000000
let account = Account()
var notifications = 0
let token = account.observe(\.balance, options: [.new, .old]) { _, _ in
    notifications += 1
}
var i = 0
while i < n {
    account.balance = i
    i = i + 1
}
token.invalidate()
print(notifications)
