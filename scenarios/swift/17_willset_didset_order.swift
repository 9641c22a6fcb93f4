// willSet and didSet run inside the change: the prior notification, willSet,
// the store, didSet, then the notification. An assignment in init, or in a
// property's own didSet, is a direct store that notifies nobody.
import Foundation

class Volume: NSObject {
    @objc dynamic var level: Int = 0 {
        willSet { print("willSet", level, "->", newValue) }
        didSet {
            if level > 10 { level = 10 }    // clamped: a direct store
            print("didSet", oldValue, "->", level)
        }
    }

    init(level: Int) {
        super.init()
        self.level = level                  // in init: no observers run
    }
}

let volume = Volume(level: 3)
let token = volume.observe(\.level, options: [.prior, .old, .new]) { volume, change in
    print(change.isPrior ? "prior" : "after", change.oldValue.map { "\($0)" } ?? "nil", change.newValue.map { "\($0)" } ?? "nil")
}
volume.level = 7
volume.level = 42
volume.setValue(5, forKey: "level")
print(volume.level)
