// A dictionary-to-model class as found in a 2020 Swift 5 app: its
// properties are not @objc, so setValuesForKeys finds no key and every value
// goes to the empty setValue(_:forUndefinedKey:) override: both stay nil,
// silently. Its `description` then asks dictionaryWithValues(forKeys:),
// which reads through value(forKey:) — not overridden — so printing the
// model raises NSUnknownKeyException for the key "key", as on a Mac.
// Before that, the same class with `@objc` on its properties (ours): the
// dictionary's Strings arrive as NSStrings and read back through KVC.
// Source: zhumuzhi/SwiftDemo, SwiftDemo/U17Module/Home/Model/UExtModel.swift.
// Changed: the second class (UExtModelObjc) and the use at the end are ours.
import Foundation

class UExtModel: NSObject {
    var key: String?
    var val: String?

    init(dict: [String: String]) {
        super.init()
        setValuesForKeys(dict)
    }

    override func setValue(_ value: Any?, forUndefinedKey key: String) {

    }

    override var description: String {
        return dictionaryWithValues(forKeys: ["key", "val"]).description
    }
}

class UExtModelObjc: NSObject {
    @objc var key: String?
    @objc var val: String?
    init(dict: [String: String]) {
        super.init()
        setValuesForKeys(dict)
    }
    override func setValue(_ value: Any?, forUndefinedKey key: String) {
        print("undefined key", key, value as Any)
    }
}

let fixed = UExtModelObjc(dict: ["key": "color", "val": "red", "id": "7"])
print(fixed.key as Any, fixed.val as Any, fixed.value(forKey: "val") as Any)

let model = UExtModel(dict: ["key": "color", "val": "red"])
print(model.key as Any, model.val as Any)
print(model)
