// source: mhorga/KVO KVO/Account.swift (2015), as found: written for Swift 2,
// where NSObject members were @objc implicitly; the use at the end is ours.
import UIKit

class Account: NSObject {
   
    let startingBalance = 100.0
    var currentBalance = 0.0
    let currentBalanceKeyPath = "currentBalance"
    
    override init() {
        super.init()
        currentBalance = startingBalance
    }
    
    func update(amount: Double) {
        currentBalance += amount
        setValue(currentBalance, forKeyPath: currentBalanceKeyPath)
    }
}

let account = Account()
account.update(amount: 25)
print(account.currentBalance)
