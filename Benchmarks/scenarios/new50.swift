// A new 50-line program, as a project writes it: a model with dependent keys,
// a view model observing it with tokens, a struct, a dictionary and didSet.
// The harness changes `run` to make each timed program new to the cache.
import Foundation
let run = 0

struct Money: CustomStringConvertible {
    var cents: Int
    var description: String { String(format: "$%d.%02d", cents / 100, cents % 100) }
}

class Order: NSObject {
    @objc dynamic var quantity: Int = 1
    @objc dynamic var unitPrice: Int = 250
    @objc dynamic var status = "new" {
        didSet { history.append(status) }
    }
    var history: [String] = []

    @objc var total: Int { quantity * unitPrice }

    override class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        key == "total" ? ["quantity", "unitPrice"] : super.keyPathsForValuesAffectingValue(forKey: key)
    }
}

final class OrderViewModel: NSObject {
    private var tokens: [NSKeyValueObservation] = []
    private(set) var renders: [String: Int] = [:]

    init(order: Order) {
        super.init()
        tokens.append(order.observe(\.total, options: [.initial, .new]) { [weak self] order, change in
            self?.renders["total", default: 0] += 1
            print("total", Money(cents: change.newValue ?? 0))
        })
        tokens.append(order.observe(\.status, options: [.old, .new]) { [weak self] _, change in
            self?.renders["status", default: 0] += 1
            print("status", change.oldValue ?? "-", "->", change.newValue ?? "-")
        })
    }
}

let order = Order()
let model = OrderViewModel(order: order)
order.quantity = 3
order.unitPrice = 199
order.status = "paid"
order.status = "shipped"
print(order.history, model.renders.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
