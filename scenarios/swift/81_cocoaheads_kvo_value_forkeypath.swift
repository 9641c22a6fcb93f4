// A block-based KVO wrapper from a CocoaHeads talk reads the new value back
// with value(forKeyPath:) instead of the change dictionary and hands the
// `AnyObject?` to a closure that interpolates it: the NSNumber prints inside
// an Optional (`foo.bar changed to Optional(42)`).
// Source: armadsen/CocoaHeads-SLC-Presentations,
// KVO-and-Related-Patterns-In-Swift/BetterSwiftKVODemo.playground/Contents.swift
// (Swift 3); the ObserverStruct part at its end is left out.
// Changed: `dynamic` is `@objc dynamic` (Swift 3's `dynamic` implied @objc);
// `(object as AnyObject).value(forKeyPath:)` is `(object as! NSObject)...`
// (AnyObject member lookup needs Objective-C interop, absent from Linux's
// swiftc).
import Foundation

class Foo : NSObject {
	@objc dynamic var bar = 0
}

let foo = Foo()

class Observe : NSObject {
	init(_ objectToObserve: NSObject, keyPath: String, observationBlock: @escaping (AnyObject?) -> Void) {
		self.objectToObserve = objectToObserve
		self.keyPath = keyPath
		self.observationBlock = observationBlock
		super.init()
		objectToObserve.addObserver(self, forKeyPath: keyPath, options: [], context: &KVOContext)
	}
	deinit {
		self.objectToObserve.removeObserver(self, forKeyPath: self.keyPath, context: &KVOContext)
	}
	override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey : Any]?, context: UnsafeMutableRawPointer?) {
		guard let keyPath = keyPath, let object = object else { return }
		if context != &KVOContext {
			super.observeValue(forKeyPath: keyPath, of: object, change: change, context: context)
			return
		}
		let newValue = (object as! NSObject).value(forKeyPath: keyPath)
		self.observationBlock(newValue as AnyObject?)
	}
	let objectToObserve: NSObject
	let keyPath: String
	let observationBlock: (AnyObject?) -> Void
	fileprivate var KVOContext = 1
}

let observer = Observe(foo, keyPath: "bar") { (newValue) -> Void in
	print("foo.bar changed to \(newValue)")
}
foo.bar = 42
foo.bar = 27
