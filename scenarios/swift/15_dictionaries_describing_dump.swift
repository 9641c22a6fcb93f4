// Dictionaries, String(describing:) and dump around KVO: an inventory
// keyed by product name, and what the change dictionary of observeValue
// holds.
import Foundation

class Product: NSObject {
    @objc dynamic var stock: Int = 0
    let sku: String
    init(sku: String) {
        self.sku = sku
        super.init()
    }
}

struct Report {
    var product: String
    var changes: Int
}

class Warehouse: NSObject {
    var counts: [String: Int] = [:]
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        guard let product = object as? Product, let change = change else { return }
        counts[product.sku, default: 0] += 1
        let kind = change[.kindKey] as? UInt
        print(product.sku, String(describing: change[.newKey]), String(describing: kind))
    }
}

let warehouse = Warehouse()
let inventory = ["apple": Product(sku: "A-1"), "pear": Product(sku: "P-2")]
for name in inventory.keys.sorted() {
    inventory[name]?.addObserver(warehouse, forKeyPath: "stock", options: [.new, .old], context: nil)
}
inventory["apple"]?.stock = 12
inventory["pear"]?.stock = 3
inventory["apple"]?.stock -= 2
for (sku, count) in warehouse.counts.sorted(by: { $0.key < $1.key }) { print(sku, count) }
dump(Report(product: "apple", changes: warehouse.counts["A-1"] ?? 0))
print(String(describing: inventory["apple"]!.value(forKey: "stock")))
