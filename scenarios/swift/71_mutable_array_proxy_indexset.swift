// mutableArrayValue(forKey:) is an NSMutableArray whose mutations notify:
// the SimpleViewer data source keeps `@objc dynamic var items =
// NSMutableArray()` and mutates it through `var _items: NSMutableArray {
// return mutableArrayValue(forKey: itemsKey) }` (VladislavSenyukov/SimpleViewer,
// SVImageDatasource.swift, research notes §3.21); then Apple's example of
// insert(_:at: IndexSet) from the NSMutableArray documentation (one change
// with every index), and the proxy cast to [String], a copy of its elements.
// The printer reads the change's arrays `as? [String]`, which print alike on
// a Mac and here. Last, an array itself refuses observers, as Apple's raises.
import Foundation

final class Printer: NSObject {
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        let kind = change?[.kindKey] as? UInt ?? 0
        let idx = (change?[.indexesKey] as? IndexSet).map { Array($0) } ?? []
        let new = (change?[.newKey] as? [String]).map { "\($0)" } ?? "-"
        let old = (change?[.oldKey] as? [String]).map { "\($0)" } ?? "-"
        print("\(keyPath!): kind=\(kind) indexes=\(idx) new=\(new) old=\(old)")
    }
}

final class SVImageDatasource: NSObject {
    let itemsKey = "items"
    @objc dynamic var items = NSMutableArray()
    var _items: NSMutableArray { return mutableArrayValue(forKey: itemsKey) }
    func append(_ urls: [String]) { let items = _items; for u in urls { items.insert(u, at: items.count) } }
    func removeItems(_ set: IndexSet) { _items.removeObjects(at: set) }
}

let p = Printer()
let ds = SVImageDatasource()
ds.addObserver(p, forKeyPath: "items", options: [.new, .old], context: nil)
ds.append(["a.png", "b.png"])
ds.removeItems(IndexSet([0]))
print(ds.items.count, ds.items[0])

final class Shelf: NSObject {
    @objc dynamic var books = ["one", "two", "three", "four"]
}
let shelf = Shelf()
shelf.addObserver(p, forKeyPath: "books", options: [.new, .old], context: nil)
let proxy = shelf.mutableArrayValue(forKey: "books")
proxy.insert(["a", "b", "c"], at: IndexSet([1, 2, 4]))
print(shelf.books)
proxy.replaceObjects(at: IndexSet([0, 6]), with: ["ONE", "FOUR"])
let copy = proxy as! [String]
proxy.removeObjects(at: IndexSet([1, 2]))
print(copy, shelf.books, proxy.count)

// An array itself refuses observers, as Apple's NSArray raises: observe the
// property that holds it (`books`), as above.
let snapshot = NSArray(array: shelf.books)
snapshot.addObserver(p, forKeyPath: "count", options: [.new], context: nil)
print("not reached")
