// Observing an array property through mutableArrayValue(forKey:): each
// addObject is an insertion, and the classic change dictionary carries the
// kind (an NSNumber, 2), the inserted objects (an NSArray) and their indexes
// (an NSIndexSet, printed as Foundation describes it). The observer prints
// the array and each value of the change, as the original NSLogs them.
// Source: yeshibuzhong/iOS, "KVO_容器类观察/KVO/ViewController.m" (Objective-C),
// rendered in Swift: Persion's `array` is `@objc dynamic var array:
// NSMutableArray`, the two NSLogs are prints (the change one prints each of
// its keys, since Swift prints a dictionary's keys in hash order), and
// touchesBegan: is a function called twice; NSStringFromSelector(@selector(array))
// is #keyPath(Persion.array) (#selector needs the Objective-C runtime).
import Foundation

class Persion: NSObject {
    @objc dynamic var array: NSMutableArray = []
}

class ViewController: NSObject {
    var p: Persion!
    var a = 0

    func viewDidLoad() {
        p = Persion()
        p.array = NSMutableArray()
        p.addObserver(self, forKeyPath: #keyPath(Persion.array), options: [.new, .old], context: nil)
    }

    override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey : Any]?, context: UnsafeMutableRawPointer?) {
        print(p.array)
        print(change![.kindKey]!, change![.indexesKey]!, change![.newKey]!, change![.oldKey] as Any)
        print(change![.indexesKey] as? IndexSet as Any, change![.newKey] as? [String] as Any)
    }

    func touchesBegan() {
        a += 1
        p.mutableArrayValue(forKey: "array").add("\(a)")
    }
}

let vc = ViewController()
vc.viewDidLoad()
vc.touchesBegan()
vc.touchesBegan()
