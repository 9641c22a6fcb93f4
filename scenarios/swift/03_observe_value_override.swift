// The Objective-C API as Apple's Swift documentation writes it: a private
// context variable, the full observeValue override, change?[.newKey] with
// as?, if let, guard and ??.
import Foundation

private var balanceContext = 0

class Account: NSObject {
    @objc dynamic var balance: Double = 0
    @objc dynamic var owner: String

    init(owner: String) {
        self.owner = owner
        super.init()
    }

    func deposit(_ amount: Double) {
        balance = balance + amount
    }
}

class Person: NSObject {
    @objc dynamic var name: String = ""

    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        guard context == &balanceContext else {
            super.observeValue(forKeyPath: keyPath, of: object, change: change, context: context)
            return
        }
        if let newBalance = change?[.newKey] as? Double {
            let old = change?[.oldKey] as? Double ?? 0
            print("\(name): balance \(old) -> \(newBalance)")
        }
        print(change)
    }
}

let acct = Account(owner: "Alice")
let alice = Person()
alice.name = "Alice"
acct.addObserver(alice, forKeyPath: #keyPath(Account.balance), options: [.new, .old], context: &balanceContext)
acct.deposit(50)
acct.setValue(75, forKey: "balance")
acct.removeObserver(alice, forKeyPath: #keyPath(Account.balance), context: &balanceContext)
acct.addObserver(alice, forKeyPath: "owner", options: NSKeyValueObservingOptions.new, context: nil)
acct.owner = "Bob"          // not our context: super raises
