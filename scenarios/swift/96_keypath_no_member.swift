// kvo-run: --expect-errors
// `#keyPath(Account.balanse)` does not compile on a Mac (the Objective-C
// property must exist): an error at the component, nothing run.
import Foundation
class Account: NSObject {
    @objc dynamic var balance = 0.0
}
extension Account {
    @objc var doubled: Double { balance * 2 }
}
print(#keyPath(Account.balance), #keyPath(Account.doubled))
print(#keyPath(Account.balanse))
