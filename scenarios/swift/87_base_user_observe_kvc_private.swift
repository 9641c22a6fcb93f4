// A demo of Swift KVO and KVC on one class: observe(\.name) with [.old,
// .new] logs the user, both values and the whole NSKeyValueObservedChange;
// an undefined key answers with value(forUndefinedKey:)'s string; setValue
// reaches a `private` @objc property; value(forKey:) prints an NSString in
// an Optional. Then (ours) nil is stored through KVC: into the String `name`
// it reads back as "" (Swift's bridging of a nil NSString), and into the Int
// `age` it goes to setNilValueForKey — the class overrides only a *class*
// method of that name (which Swift on a Mac lets a root-class instance
// method be), so the instance's default raises NSInvalidArgumentException.
// Source: Coder-Star/LTXiOSUtils, LTXiOSUtilsDemo/LTXiOSUtilsDemo/Model/BaseUser.swift
// (NSBaseUser) and the demo's BaseTest.swift (getNSUser, test()).
// Changed: the project's `Log.d(x)` is `print(x)`; BaseTest's
// NSKeyValueObservation! property is a top-level token; the last four lines
// are ours.
import Foundation

class NSBaseUser: NSObject {
    @objc
    dynamic var name = ""

    @objc
    var age = 0

    @objc
    private var sex = "私有性别"

    override func value(forUndefinedKey key: String) -> Any? {
        return "进入KVO取值错误"
    }

    override class func setNilValueForKey(_ key: String) {
        print("key赋值nil")
    }

    override var description: String {
        return "\(name) \(age) \(sex)"
    }
}

let user = NSBaseUser()
user.name = "张三"
user.age = 18
let observation = user.observe(\NSBaseUser.name, options: [.old, .new]) { user, change in
    print(user)
    print(change.oldValue)
    print(change.newValue)
    print(change)
}
print(user.value(forKey: "age1"))
user.name = "李四"
user.setValue("kvc赋值私有属性key", forKey: "name")
user.setValue("kvc赋值私有属性", forKey: "sex")
print(user.value(forKey: "name"))

user.setValue(nil, forKey: "name")
print(user.name.isEmpty, user.value(forKey: "name") as Any)
user.setValue(nil, forKey: "age")
print("not reached")
