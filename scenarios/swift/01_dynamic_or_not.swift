// "Why is my observer never called?": only an @objc dynamic property
// notifies when Swift code assigns it. @objc alone is visible to KVC, so
// setValue(_:forKey:) notifies; a plain var is invisible to KVC.
import Foundation

class Account: NSObject {
    @objc dynamic var balance: Double = 0
    @objc var interestRate: Double = 0.05
    var nickname: String = ""
}

class Auditor: NSObject {
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        print("heard", keyPath!)
    }
}

let acct = Account()
let auditor = Auditor()
acct.addObserver(auditor, forKeyPath: "balance", options: [.new, .old], context: nil)
acct.addObserver(auditor, forKeyPath: "interestRate", options: [.new], context: nil)
acct.addObserver(auditor, forKeyPath: "nickname", options: [.new], context: nil)

acct.balance = 200                                  // notifies
acct.interestRate = 0.07                            // silent, with a warning the first time
acct.interestRate = 0.08                            // silent, no second warning
acct.setValue(0.09, forKey: "interestRate")         // through the Objective-C setter: notifies
acct.nickname = "savings"                           // never notifies
print(acct.value(forKey: "balance"), acct.interestRate)
print(acct)
acct.setValue("rainy day", forKey: "nickname")      // invisible to KVC
