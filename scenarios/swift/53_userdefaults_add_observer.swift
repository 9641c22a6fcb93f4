// UserDefaults with addObserver(_:forKeyPath:) and a registered default
// (gist salexkidd/baf9b8a847fc6780db1e12c57c27c7db, "UserDefaults KVO
// called twice", fixed in macOS 10.14: once here). register(defaults:)
// notifies nobody (Apple documents a notification for setting and removing
// a default, none for registering); removing the set value falls back to
// the registered one, which is the change's new value.
import Foundation

let testKey = "TESTKEY"
let suite = "kvo-run.defaults.demo"
let userDefaults = UserDefaults(suiteName: suite)!
userDefaults.removePersistentDomain(forName: suite)
userDefaults.register(defaults: [testKey: false])

final class TestClass: NSObject {
    var callCount = 0
    override init() {
        super.init()
        userDefaults.addObserver(self, forKeyPath: testKey, options: [.old, .new], context: nil)
    }
    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        callCount += 1
        if keyPath == testKey {
            print("\(testKey) changed: (\(callCount)times) old=\(change?[.oldKey] ?? "nil") new=\(change?[.newKey] ?? "nil")")
        }
    }
    func stop() { userDefaults.removeObserver(self, forKeyPath: testKey) }
}

let t = TestClass()
userDefaults.set(true, forKey: testKey)
userDefaults.register(defaults: [testKey: true, "other": 1])
userDefaults.removeObject(forKey: testKey)
userDefaults.setValue("kvc", forKey: testKey)
print(userDefaults.value(forKey: testKey) ?? "nil", userDefaults.integer(forKey: "other"))
t.stop()
userDefaults.removePersistentDomain(forName: suite)
print(userDefaults.object(forKey: testKey) ?? "nil")
