import Foundation

class Thermostat: NSObject {
    @objc dynamic var target = 20 {
        willSet { print("will", newValue) }
        didSet { print("did", oldValue) }
    }
}
