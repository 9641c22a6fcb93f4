// Start-up, compiled: startup.kvo's story as a Swift program (2 notifications).
import Foundation
class Account: NSObject { @objc dynamic var balance: Double = 0 }
class Person: NSObject {
    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?) {}
}
var C = 0
let account = Account()
account.balance = 100
let alice = Person()
account.addObserver(alice, forKeyPath: "balance", options: [.new, .old], context: &C)
account.balance = 150
account.setValue(175, forKey: "balance")
account.removeObserver(alice, forKeyPath: "balance", context: &C)
