import Foundation

private var balanceContext = 0
class Account: NSObject { @objc dynamic var balance = 0.0 }
class Watcher: NSObject {
    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        if context == &balanceContext { print(keyPath ?? "") }
    }
}
let a = Account()
let w = Watcher()
a.addObserver(w, forKeyPath: "balance", options: [.new], context: &balanceContext)
a.balance = 1
a.removeObserver(w, forKeyPath: "balance", context: &balanceContext)
