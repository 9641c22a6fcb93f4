// Collection operators over an NSArray of the program's own objects, and
// @max.self over numbers, with the results NSHipster's "KVC Collection
// Operators" states (4, 3526, 881.5, 1699, June 11 2012, the unions).
// Source: nshipster.com/kvc-collection-operators (NSHipster/articles,
// 2012-12-03-kvc-collection-operators.md), transcribed to Swift (research
// notes §3.18). @sum and @avg are NSDecimalNumbers, exact as on a Mac.
import Foundation

final class Product: NSObject {
    @objc let name: String
    @objc let price: Double
    @objc let launchedOn: Date
    init(_ name: String, _ price: Double, _ ymd: (Int, Int, Int)) {
        var c = DateComponents(); c.year = ymd.0; c.month = ymd.1; c.day = ymd.2
        var cal = Calendar(identifier: .gregorian); cal.timeZone = TimeZone(identifier: "UTC")!
        self.name = name; self.price = price; self.launchedOn = cal.date(from: c)!
    }
}

let iPhone5 = Product("iPhone 5", 199, (2012, 9, 21))
let iPadMini = Product("iPad Mini", 329, (2012, 11, 2))
let macBookPro = Product("MacBook Pro", 1699, (2012, 6, 11))
let iMac = Product("iMac", 1299, (2012, 11, 2))
let products = [iPhone5, iPadMini, macBookPro, iMac] as NSArray

print(products.value(forKeyPath: "@count")!)               // 4
print(products.value(forKeyPath: "@sum.price")!)           // 3526
print(products.value(forKeyPath: "@avg.price")!)           // 881.5
print(products.value(forKeyPath: "@max.price")!)           // 1699
print(products.value(forKeyPath: "@min.launchedOn")!)      // 2012-06-11 00:00:00 +0000

let inventory = [iPhone5, iPhone5, iPhone5, iPadMini, macBookPro, macBookPro] as NSArray
print((inventory.value(forKeyPath: "@unionOfObjects.name") as! [String]).joined(separator: ", "))
print((inventory.value(forKeyPath: "@distinctUnionOfObjects.name") as! [String]).sorted().joined(separator: ", "))
let verizon = [iPhone5, iPadMini] as NSArray
print(([inventory, verizon] as NSArray).value(forKeyPath: "@distinctUnionOfArrays.name") as! [String])

// Pro tip from the article: numbers themselves via .self
print(([1, 2, 3] as NSArray).value(forKeyPath: "@max.self")!)  // 3
