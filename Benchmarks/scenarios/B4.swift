// B4 compiled (SPEC §11.0): a Person observed on "account.balance" with the
// classic addObserver; 100,000 iterations each swap person.account between
// two accounts (one notification) and set the current account's balance
// (one notification): 200,000 notifications. Run with --quiet: prints only
// its count, as B4.m does.
import Foundation

class Account: NSObject {
    @objc dynamic var balance: Int = 0
}

class Person: NSObject {
    @objc dynamic var account: Account?
    init(account: Account) {
        self.account = account
    }
}

var notifications = 0

class Watcher: NSObject {
    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        notifications += 1
    }
}

let n = 100000
let a1 = Account()
let a2 = Account()
let person = Person(account: a1)
let watcher = Watcher()
person.addObserver(watcher, forKeyPath: "account.balance", options: [.new, .old], context: nil)
var i = 0
while i < n {
    if i % 2 == 0 {
        person.account = a2
    } else {
        person.account = a1
    }
    person.account?.balance = i
    i = i + 1
}
person.removeObserver(watcher, forKeyPath: "account.balance")
print(notifications)
