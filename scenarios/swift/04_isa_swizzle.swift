// KVO swaps an observed object's class for a generated subclass:
// object_getClass shows it, type(of:) and className hide it.
import Foundation

class Account: NSObject {
    @objc dynamic var balance: Double = 0
    @objc var interestRate: Double = 0
    var plain: Int = 0
}

class Auditor: NSObject {
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {}
}

let acct = Account()
let auditor = Auditor()
print(NSStringFromClass(object_getClass(acct)), type(of: acct))
acct.addObserver(auditor, forKeyPath: "balance", options: [.new], context: nil)
print(NSStringFromClass(object_getClass(acct)), type(of: acct), acct.className)
let token = acct.observe(\.balance) { account, change in }
acct.removeObserver(auditor, forKeyPath: "balance")
print(NSStringFromClass(object_getClass(acct)))     // the token still observes
token.invalidate()
print(NSStringFromClass(object_getClass(acct)))     // the class again
acct.addObserver(auditor, forKeyPath: "plain", options: [], context: nil)
print(NSStringFromClass(object_getClass(acct)))     // no Objective-C setter to override: no subclass
acct.addObserver(auditor, forKeyPath: "interestRate", options: [], context: nil)
print(NSStringFromClass(object_getClass(acct)))     // @objc: the subclass overrides its setter (setValue notifies)
