import Foundation

class Engine: NSObject { @objc dynamic var rpm = 0 }
class Car: NSObject {
    @objc var engine = Engine()
    var token: NSKeyValueObservation?
    func start() {
        token = observe(\.engine.rpm, options: [.new]) { _, change in print(change.newValue ?? 0) }
    }
}
