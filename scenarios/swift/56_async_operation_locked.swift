// An asynchronous Operation that posts isExecuting and isFinished by hand
// under its own lock, the pattern Apple's "Subclassing Notes" require.
// Source: swift-corelibs-foundation Tests/Foundation/TestOperationQueue.swift,
// class AsyncOperation and test_AsyncOperation (which asserts the final
// false/true); the observer is added (research notes §3.1, the sleep 0.2 s
// where the test sleeps 1 s). waitUntilFinished returns on the isFinished
// notification, posted from the operation's own dispatch queue.
import Foundation

class AsyncOperation: Operation {
    private let queue = DispatchQueue(label: "async.operation.queue")
    private let lock = NSLock()
    private var _executing = false
    private var _finished = false

    override var isExecuting: Bool {
        get { lock.lock(); let v = _executing; lock.unlock(); return v }
        set {
            if isExecuting != newValue {
                willChangeValue(forKey: "isExecuting")
                lock.lock(); _executing = newValue; lock.unlock()
                didChangeValue(forKey: "isExecuting")
            }
        }
    }
    override var isFinished: Bool {
        get { lock.lock(); let v = _finished; lock.unlock(); return v }
        set {
            if isFinished != newValue {
                willChangeValue(forKey: "isFinished")
                lock.lock(); _finished = newValue; lock.unlock()
                didChangeValue(forKey: "isFinished")
            }
        }
    }
    override var isAsynchronous: Bool { return true }

    override func start() {
        if isCancelled { isFinished = true; return }
        isExecuting = true
        queue.async {
            Thread.sleep(forTimeInterval: 0.2)
            self.isExecuting = false
            self.isFinished = true
        }
    }
}

final class Printer: NSObject {
    override func observeValue(forKeyPath keyPath: String?, of object: Any?,
                               change: [NSKeyValueChangeKey: Any]?, context: UnsafeMutableRawPointer?) {
        print("\(keyPath!) -> \(change?[.newKey] ?? "nil")")
    }
}

let op = AsyncOperation()
let printer = Printer()
op.addObserver(printer, forKeyPath: "isExecuting", options: [.new], context: nil)
op.addObserver(printer, forKeyPath: "isFinished", options: [.new], context: nil)
op.start()
op.waitUntilFinished()
print("isExecuting=\(op.isExecuting) isFinished=\(op.isFinished)")
op.removeObserver(printer, forKeyPath: "isExecuting")
op.removeObserver(printer, forKeyPath: "isFinished")
