// The shape of issue 39's report that used to register and never fire: a
// holder's @objc dynamic var op observed through \.op.isFinished (golden 54
// before Operation was kvo-run's). The path names the Objective-C key
// `op.finished`, as on a Mac; KVC answers to both names of the key.
import Foundation

final class Holder: NSObject {
    @objc dynamic var op = BlockOperation { print("ran") }
}
let holder = Holder()
let token = holder.observe(\.op.isFinished, options: [.new]) { _, change in
    print("finished:", change.newValue ?? false)
}
holder.op.start()
print("value(forKey:) of both names:", holder.op.value(forKey: "isFinished")!, holder.op.value(forKey: "finished")!)
