// A generic NSObject subclass, a protocol with a default implementation,
// and an observer that forwards changes to a delegate.
import Foundation

protocol ChangeDelegate: AnyObject {
    func didChange(_ key: String, to value: Any?)
}

extension ChangeDelegate {
    func didChange(_ key: String, to value: Any?) {
        print("default delegate:", key, value ?? "nil")
    }
}

class Box<Element>: NSObject {
    var items: [Element] = []
    @objc dynamic var count = 0
    func add(_ item: Element) {
        items.append(item)
        count = items.count
    }
}

class Forwarder: NSObject {
    weak var delegate: ChangeDelegate?
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        delegate?.didChange(keyPath ?? "", to: change?[.newKey])
    }
}

final class Logger: ChangeDelegate {}

let box = Box<String>()
let forwarder = Forwarder()
let logger = Logger()
forwarder.delegate = logger
box.addObserver(forwarder, forKeyPath: "count", options: [.new], context: nil)
box.add("a")
box.add("b")
print(box.items, box.count)
box.removeObserver(forwarder, forKeyPath: "count")
