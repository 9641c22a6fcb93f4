// source: gist rcharlton/87d1a2768d78ac7be3c6927a38daafe4 "KeyValue Observing
// in Swift", the public Observer class as found; its use at the end is ours.
import Foundation

public final class Observer: NSObject {
    public let subject: NSObject
    public let keyPath: String
    public let didChange: ([NSKeyValueChangeKey : Any]) -> Void

    public init(_ subject: NSObject,
                keyPath: String,
                didChange: @escaping ([NSKeyValueChangeKey : Any]) -> Void) {
        self.subject = subject
        self.keyPath = keyPath
        self.didChange = didChange
        super.init()
        subject.addObserver(self,
                            forKeyPath: keyPath,
                            options: [.initial, .new],
                            context: nil)
    }

    override public func observeValue(
        forKeyPath keyPath: String?,
        of object: Any?,
        change: [NSKeyValueChangeKey : Any]?,
        context: UnsafeMutableRawPointer?) {
        if let change = change {
            didChange(change)
        }
    }

    deinit {
        subject.removeObserver(self, forKeyPath: keyPath)
    }
}

class Thermostat: NSObject {
    @objc dynamic var temperature = 20.5
}
let thermostat = Thermostat()
var watcher: Observer? = Observer(thermostat, keyPath: "temperature") { change in
    print("temperature:", change[.newKey] ?? "none")
}
thermostat.temperature = 21
watcher = nil
thermostat.temperature = 22
