// Apple's Key-Value Observing Programming Guide, "Registering for Key-Value
// Observing", in Swift: contexts as the addresses of private variables,
// one observeValue that switches on them, and removal.
import Foundation

private var PersonAccountBalanceContext = 0
private var PersonAccountInterestRateContext = 0

class Account: NSObject {
    @objc dynamic var balance: Double = 0
    @objc dynamic var interestRate: Double = 0.05
}

class Person: NSObject {
    let name: String
    init(name: String) {
        self.name = name
        super.init()
    }

    func registerAsObserver(for account: Account) {
        account.addObserver(self, forKeyPath: "balance", options: [.new, .old], context: &PersonAccountBalanceContext)
        account.addObserver(self, forKeyPath: "interestRate", options: [.new, .old], context: &PersonAccountInterestRateContext)
    }

    func unregisterAsObserver(for account: Account) {
        account.removeObserver(self, forKeyPath: "balance", context: &PersonAccountBalanceContext)
        account.removeObserver(self, forKeyPath: "interestRate", context: &PersonAccountInterestRateContext)
    }

    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        if context == &PersonAccountBalanceContext {
            let old = change?[.oldKey] as? Double ?? 0
            let new = change?[.newKey] as? Double ?? 0
            print("\(name): balance moved by \(new - old)")
        } else if context == &PersonAccountInterestRateContext {
            print("\(name): rate is now", change?[.newKey] ?? "unknown")
        } else {
            super.observeValue(forKeyPath: keyPath, of: object, change: change, context: context)
        }
    }
}

let account = Account()
let inspector = Person(name: "inspector")
inspector.registerAsObserver(for: account)
account.balance = 250
account.interestRate = 0.07
inspector.unregisterAsObserver(for: account)
account.balance = 300
print(account.observationInfo)
