// B2 compiled (SPEC §11.0): 10,000 observers, added with the classic
// addObserver(_:forKeyPath:options:context:), each counting in its
// observeValue(forKeyPath:of:change:context:); 100 sets of the observed
// property deliver 1,000,000 notifications. Run with --quiet: prints only
// its count, as B2.m does.
import Foundation

class Account: NSObject {
    @objc dynamic var balance: Int = 0
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

let observers = 10000
let sets = 100
let account = Account()
var watchers: [Watcher] = []
for _ in 0..<observers {
    watchers.append(Watcher())
}
for watcher in watchers {
    account.addObserver(watcher, forKeyPath: "balance", options: [.new, .old], context: nil)
}
var i = 0
while i < sets {
    account.balance = i
    i = i + 1
}
for watcher in watchers {
    account.removeObserver(watcher, forKeyPath: "balance")
}
print(notifications)
