// A Swift trap ends the program as on a Mac: what it printed stays, and
// kvo-run reports the trap.
import Foundation

class Gauge: NSObject {
    @objc dynamic var reading: Int = 0
}

let gauge = Gauge()
let token = gauge.observe(\.reading, options: [.new]) { _, change in
    let readings = [10, 20, 30]
    print("reading", readings[change.newValue!])
}
gauge.reading = 1
gauge.reading = 5
print("never printed")
