// Swift's own test/Interpreter/SDK/KVO.swift (swiftlang/swift), run on macOS:
// an observer of its own model's `name` and of `model.number` prints
// `value(forKeyPath:)` of what changed. Its CHECK lines match `abc` and `42`
// as substrings; the whole line a Mac prints is `Optional(abc)` and
// `Optional(42)` (an NSString and an NSNumber inside an Optional, §11.8).
// Changed: `dynamic` is written `@objc dynamic` (the test is Swift 3 mode,
// where `dynamic` and NSObject members implied @objc; `@objc` is added to
// `model` and `foo` likewise); `(object! as AnyObject).value(...)` becomes
// `(object! as! NSObject).value(...)`: AnyObject member lookup needs the
// Objective-C interop that Linux's swiftc lacks. The class-metadata
// preconditions at the end are left out: `object_getClass` returns
// kvo-run's own class value here, not an `AnyClass` (it names the generated
// subclass, which Linux cannot create), and Linux cannot treat a metatype as
// AnyObject (`fooClassAsObject`).
import Foundation

var kvoContext = 0

class Model : NSObject {
  @objc dynamic var name = ""
  @objc dynamic var number = 0
}

class Observer : NSObject {
  @objc let model = Model()
  override init() {
    super.init()
    model.addObserver(self, forKeyPath: "name", options: [], context: &kvoContext)
    self.addObserver(self, forKeyPath: "model.number", options: [], context: &kvoContext)
  }
  deinit {
    self.removeObserver(self, forKeyPath: "model.number")
    model.removeObserver(self, forKeyPath: "name")
  }
  func test() {
    model.name = "abc"
    model.number = 42
  }
  override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey : Any]?, context: UnsafeMutableRawPointer?) {
    if context != &kvoContext {
      return super.observeValue(forKeyPath: keyPath!, of: object!, change: change!, context: context)
    }
    print((object! as! NSObject).value(forKeyPath: keyPath!))
  }
}

// CHECK: abc
// CHECK-NEXT: 42
Observer().test()

class Foo: NSObject {
  @objc let foo = 0
}
let foo = Foo()
foo.addObserver(foo, forKeyPath: "foo", options: [], context: &kvoContext)
let bar = foo.foo
// CHECK-NEXT: 0
print(bar)

// CHECK-NEXT: class metadata checks okay
print("class metadata checks okay")
