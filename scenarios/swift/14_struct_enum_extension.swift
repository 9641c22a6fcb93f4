// An NSObject model inside an ordinary Swift design: a struct value, an enum
// with a raw value, a protocol, an extension adding behaviour, and a generic
// helper that observes any NSObject.
import Foundation

struct Money: CustomStringConvertible {
    var cents: Int
    var description: String { String(format: "$%d.%02d", cents / 100, cents % 100) }
}

enum Tier: Int {
    case basic = 1, gold, platinum
}

protocol Describable {
    var summary: String { get }
}

class Customer: NSObject {
    @objc dynamic var name: String
    @objc dynamic var tierRaw: Int = Tier.basic.rawValue
    var wallet = Money(cents: 0)

    init(name: String) {
        self.name = name
        super.init()
    }
}

extension Customer: Describable {
    var tier: Tier { Tier(rawValue: tierRaw) ?? .basic }
    var summary: String { "\(name) (\(tier), \(wallet))" }

    func upgrade() {
        if let next = Tier(rawValue: tierRaw + 1) { tierRaw = next.rawValue }
    }
}

func watch<Root: NSObject, Value>(_ object: Root, _ keyPath: KeyPath<Root, Value>, label: String) -> NSKeyValueObservation {
    object.observe(keyPath, options: [.new]) { _, change in
        print(label, change.newValue.map { "\($0)" } ?? "nil")
    }
}

let customer = Customer(name: "Ann")
let tierWatch = watch(customer, \.tierRaw, label: "tier is now")
customer.wallet.cents += 1250
customer.upgrade()
customer.upgrade()
customer.upgrade()   // already platinum: no assignment
let items: [Describable] = [customer]
for item in items { print(item.summary) }
