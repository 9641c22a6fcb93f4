import Foundation

class Account: NSObject { @objc dynamic var balance = 0.0 }
class Person: NSObject { @objc dynamic var account = Account() }
let p = Person()
let token = p.observe(\.account.balance, options: [.old, .new]) { person, change in
    print(change.newValue ?? 0)
}
let other = p.observe(\Person.account) { _, _ in }
p.account.balance = 5
