// observe(\.account.balance) follows the relationship: replacing the account
// notifies, and so does a change to the current account's balance, while the
// replaced account is no longer watched.
import Foundation

class Account: NSObject {
    @objc dynamic var balance: Double = 0
    init(balance: Double) {
        self.balance = balance
        super.init()
    }
}

class Person: NSObject {
    @objc dynamic var account: Account
    init(account: Account) {
        self.account = account
        super.init()
    }
}

let savings = Account(balance: 100)
let checking = Account(balance: 5)
let owner = Person(account: savings)
let token = owner.observe(\.account.balance, options: [.old, .new]) { _, change in
    print("balance", change.oldValue!, "->", change.newValue!)
}
savings.balance = 150
owner.account = checking
savings.balance = 999       // no longer observed
checking.balance = 10
print(owner.value(forKeyPath: "account.balance") as? Double ?? -1)
