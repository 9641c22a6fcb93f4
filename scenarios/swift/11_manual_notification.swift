// Apple's guide, "Manual Change Notification", in Swift: opting a key out of
// automatic notification with automaticallyNotifiesObservers(forKey:) and
// with automaticallyNotifiesObserversOf<Key>, then notifying by hand only
// when the value really changes.
import Foundation

class Account: NSObject {
    private var _balance: Double = 0
    @objc dynamic var balance: Double {
        get { _balance }
        set {
            guard newValue != _balance else { return }
            willChangeValue(forKey: "balance")
            _balance = newValue
            didChangeValue(forKey: "balance")
        }
    }

    @objc dynamic var owner: String = ""
    @objc dynamic var note: String = ""

    override class func automaticallyNotifiesObservers(forKey key: String) -> Bool {
        if key == "balance" { return false }
        return super.automaticallyNotifiesObservers(forKey: key)
    }

    @objc class func automaticallyNotifiesObserversOfNote() -> Bool { false }
}

class Ledger: NSObject {
    var entries: [String] = []
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        entries.append(keyPath ?? "?")
        print("ledger:", keyPath ?? "?", change?[.newKey] ?? "nil")
    }
}

let account = Account()
let ledger = Ledger()
for key in ["balance", "owner", "note"] {
    account.addObserver(ledger, forKeyPath: key, options: [.new], context: nil)
}
account.balance = 100      // one notification, sent by hand
account.balance = 100      // unchanged: nobody is told
account.owner = "Ann"      // automatic
account.note = "silent"    // opted out by automaticallyNotifiesObserversOfNote
account.setValue("kvc", forKey: "note")   // still silent
print(ledger.entries)
print(NSStringFromClass(object_getClass(account)!))
