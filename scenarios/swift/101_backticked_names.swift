// Backticks make a keyword a name (`var`, `default`, `class`); the key KVC
// and KVO know it by has no backticks, as on a Mac (SPEC §11.8).
import Foundation

class Options: NSObject {
    @objc dynamic var `var`: Int = 0
    @objc dynamic var `default` = "none"
}

class `default`: NSObject {
    @objc dynamic var `class` = 1
}

let options = Options()
let token = options.observe(\.`var`, options: [.new, .old]) { _, change in
    print("var:", change.oldValue ?? -1, "->", change.newValue ?? -1)
}
options.setValue(3, forKey: "var")
options.var = 4
print(options.value(forKey: "var") ?? "nil")
let other = options.observe(\.default, options: [.new]) { _, change in print("default:", change.newValue ?? "nil") }
options.default = "set"
print(options.value(forKeyPath: #keyPath(Options.default)) ?? "nil")
let `in` = `default`()
`in`.setValue(2, forKey: "class")
print(`in`.class, `in`.value(forKey: "class") ?? "nil")
print(`in`)
