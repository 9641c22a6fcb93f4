// Block observation: observe(\.key) returns a token that keeps the
// observation alive; the handler gets Swift's NSKeyValueObservedChange.
import Foundation

class Account: NSObject {
    @objc dynamic var balance: Double = 0
    @objc dynamic var owner: String? = nil
}

let acct = Account()
let balanceToken = acct.observe(\.balance, options: [.old, .new]) { account, change in
    print(change.oldValue!, "->", change.newValue!)
    print(change)
}
acct.balance = 200
balanceToken.invalidate()
acct.balance = 300          // nothing: the token was invalidated
balanceToken.invalidate()   // harmless twice

// .initial runs the handler before observe returns; .prior before the change.
let ownerToken = acct.observe(\.owner, options: [.initial, .prior, .new]) { account, change in
    print("owner", change.newValue, change.isPrior, change.kind == .setting)
}
print("observe returned")
acct.owner = "Ann"

// A token nobody keeps ends at once: only .initial ever fires.
_ = acct.observe(\.balance, options: [.initial]) { account, change in print("initial only") }
acct.observe(\.balance) { account, change in print("never") }
acct.balance = 400

// A token held by a local ends with its scope.
func watchOnce() {
    let local = acct.observe(\.balance, options: [.new]) { account, change in print("local sees", change.newValue!) }
    acct.balance = 500
}
watchOnce()
acct.balance = 600

// A token held by a property lives until the property lets it go.
class Watcher: NSObject {
    var token: NSKeyValueObservation?
    func start(_ account: Account) {
        token = account.observe(\.balance) { account, change in print("watcher sees", account.balance) }
    }
}
let watcher = Watcher()
watcher.start(acct)
acct.balance = 700
watcher.token = nil
acct.balance = 800
print(acct.observationInfo)

// Releasing a token, or the observed object, ends the observation silently.
release(ownerToken)
acct.owner = "Bob"
let last = acct.observe(\.owner) { account, change in print("never") }
release(acct)
print("done")
