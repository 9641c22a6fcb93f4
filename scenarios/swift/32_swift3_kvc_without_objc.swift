// source: ywwzwb/SwiftKVOKVCDemo SwiftKVOKVCDemo.playground/Contents.swift,
// the KVC half as found. Written for Swift 3, where NSObject members were
// @objc implicitly; since Swift 4 they are not, so setValue raises.
import Cocoa

class SimpleClass {
    var someValue: String = "123"
}
//SimpleClass().setValue("456", forKey: "someValue") // 错误, 必须要继承自 NSObject

// MARK: - kvc
class KVCClass :NSObject{
    var someValue: String = "123"
}
let kvc = KVCClass()
kvc.someValue
kvc.setValue("456", forKey: "someValue")
kvc.someValue
