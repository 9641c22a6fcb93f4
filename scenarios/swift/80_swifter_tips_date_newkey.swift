// An observed Date: the change dictionary carries an NSDate, printed inside
// the Optional as Foundation describes it (`Optional(2001-01-01 00:00:00
// +0000)`), and `as? Date` unwraps it. Source: "KVO", Swifter - 100 Swift
// tips (onevcat), http://en.swifter.tips/kvo/ : MyClass with
// `dynamic var date = NSDate()`, an observer with a private context printing
// "Date is changed. \(change[NSKeyValueChangeNewKey])". Changed: Swift 2
// spellings brought to Swift 5 (`@objc dynamic`, observeValue(forKeyPath:…),
// `change?[.newKey]`), the UIViewController is an NSObject, the `delay(3)`
// is a direct call, and the dates are fixed (reference date, then +1 day) so
// the output repeats; the `as? Date` line is ours.
import Foundation

class MyClass: NSObject {
    @objc dynamic var date = NSDate(timeIntervalSinceReferenceDate: 0)
}

private var myContext = 0

class ViewController: NSObject {
    var myObject: MyClass!

    func viewDidLoad() {
        myObject = MyClass()
        print("MyClass init. Date: \(myObject.date)")
        myObject.addObserver(self, forKeyPath: "date", options: .new, context: &myContext)
        myObject.date = NSDate(timeIntervalSinceReferenceDate: 86400)
    }

    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey : Any]?,
                               context: UnsafeMutableRawPointer?) {
        if context == &myContext {
            print("Date is changed. \(change?[.newKey])")
            if let d = change?[.newKey] as? Date {
                print(d.timeIntervalSinceReferenceDate, type(of: change![.newKey]!) is NSDate.Type)
            }
        }
    }
}

let vc = ViewController()
vc.viewDidLoad()
