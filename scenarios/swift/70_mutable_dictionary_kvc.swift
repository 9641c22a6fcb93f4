// KVC on an NSMutableDictionary: setValue(_:forKey:) is setObject(_:forKey:)
// and nil removes the key (Apple's setValue(_:forKey:) page for
// NSMutableDictionary); value(forKeyPath:) goes through nested dictionaries
// and arrays; an array refuses observers, as Apple's raises. Observing a key
// of a dictionary itself (Stack Overflow 9611965, research notes §3.20) is
// not modelled: swift-corelibs-foundation's dictionary tells no one of its
// changes, so it is a run-time error that says so, never a silent observation.
import Foundation

let settings = NSMutableDictionary()
settings.setValue("dark", forKey: "theme")
settings.setValue(["size": 14, "family": "Menlo"] as NSDictionary, forKey: "font")
settings.setValue([1, 2, 3] as NSArray, forKey: "recent")
print(settings.value(forKey: "theme")!)
print(settings.value(forKeyPath: "font.size")!)
print(settings.value(forKeyPath: "recent.@sum.self")!)
settings.setValue(nil, forKey: "theme")
print("theme after nil:", settings.value(forKey: "theme") as Any, "count:", settings.count)

final class Watcher: NSObject {
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        print("\(keyPath!) changed")
    }
}
let w = Watcher()
settings.addObserver(w, forKeyPath: "theme", options: [.old, .new], context: nil)
settings.setObject("light", forKey: "theme" as NSString)
