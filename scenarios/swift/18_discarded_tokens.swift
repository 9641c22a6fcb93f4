// A token nobody keeps ends at once: `let _ =` and `_ =` both discard it, so
// only an .initial notification ever arrives. A kept token goes on.
import Foundation

class Counter: NSObject {
    @objc dynamic var value = 0
}

let counter = Counter()
let _ = counter.observe(\.value, options: [.initial, .new]) { _, change in
    print("discarded with let _:", change.newValue!)
}
_ = counter.observe(\.value, options: [.initial, .new]) { _, change in
    print("discarded with _ =:", change.newValue!)
}
let kept = counter.observe(\.value, options: [.new]) { _, change in
    print("kept:", change.newValue!)
}
counter.value += 1
counter.value += 1
print(counter.observationInfo)
