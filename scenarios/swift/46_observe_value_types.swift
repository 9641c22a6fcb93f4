// A handler's change carries the property's own type, whatever that type:
// Int, Double, Bool, String (each delivered by a specialised path in the
// runtime) and an array of strings (the generic path) print alike.
import Foundation

class Sensor: NSObject {
    @objc dynamic var count = 0
    @objc dynamic var level = 0.5
    @objc dynamic var active = false
    @objc dynamic var label = "idle"
    @objc dynamic var tags: [String] = []
}

let sensor = Sensor()
let tokens = [
    sensor.observe(\.count, options: [.old, .new]) { _, change in
        print("count", change.oldValue as Any, "->", change.newValue as Any)
    },
    sensor.observe(\.level, options: [.old, .new]) { _, change in
        print("level", change.oldValue as Any, "->", change.newValue as Any)
    },
    sensor.observe(\.active, options: [.old, .new]) { _, change in
        print("active", change.oldValue as Any, "->", change.newValue as Any)
    },
    sensor.observe(\.label, options: [.new]) { _, change in
        print("label", change.oldValue as Any, "->", change.newValue as Any)
    },
    sensor.observe(\.tags, options: [.old, .new]) { _, change in
        print("tags", change.oldValue as Any, "->", change.newValue as Any)
    },
]
sensor.count = 1
sensor.count += 1
sensor.level = 0.75
sensor.active = true
sensor.label = "busy"
sensor.tags.append("hot")
sensor.setValue(3, forKey: "count")
print(sensor.value(forKey: "count") as Any, tokens.count)
