// A key path through one of Foundation's classes whose KVO kvo-run does not
// model (SPEC §11.7: DateFormatter here) would register and never fire, as
// `observe(\.download.progress.fractionCompleted)` did before Progress was
// kvo-run's: it is a run-time error that says so, never a silent
// observation. (The shape of issue 39's report: a holder's `@objc dynamic
// var` observed through a key path into the Foundation object. Its first
// version went through an Operation, which kvo-run now models: golden 61.)
import Foundation

final class Holder: NSObject {
    @objc dynamic var formatter = DateFormatter()
}
let holder = Holder()
let token = holder.observe(\.formatter.dateFormat, options: [.new]) { _, change in
    print("format:", change.newValue ?? "nil")
}
holder.formatter.dateFormat = "yyyy-MM-dd"
print("not reached")
