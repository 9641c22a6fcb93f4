// source: fpotter.org/posts/when-is-kvo-unregistration-automatic, the manual
// notification listing (class Foo) as found; the use at the end is ours.
import Foundation

class Foo: NSObject {
    @objc
    class func automaticallyNotifiesObserversOfSomeString() -> Bool {
        // Opt-out of auto notification for updates to "someString"
        return false
    }

    @objc
    dynamic var someString: String? {
        willSet {
            // Manually tell our observers.
            willChangeValue(for: \.someString)
        }
        didSet {
            // Manually tell our observers.
            didChangeValue(for: \.someString)
        }
    }
}

let foo = Foo()
let token = foo.observe(\.someString, options: [.old, .new]) { _, change in
    print("someString:", change.oldValue as Any, "->", change.newValue as Any)
}
foo.someString = "a"
foo.someString = nil
