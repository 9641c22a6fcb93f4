// kvo-run: --expect-errors
// `#keyPath(Account)` names a class and no property: swiftc's error on a Mac
// ("empty '#keyPath' does not refer to a property", swift's own test
// test/expr/unary/keypath/keypath-objc.swift), nothing run. A lone property
// name inside the class is a key path and stays one.
import Foundation
class Account: NSObject {
    @objc dynamic var balance = 0.0
    func key() -> String { #keyPath(balance) }
}
print(Account().key())
let account = Account()
account.addObserver(Account(), forKeyPath: #keyPath(Account), options: [], context: nil)
