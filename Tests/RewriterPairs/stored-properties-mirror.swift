import Foundation

class Cache: NSObject {
    @objc dynamic var x = 0, y = 1
    let name: String = "c"
    var watched = 2 { didSet { } }
    var computed: Int { 3 }
    lazy var lazyValue = 4
    static var shared = 5
}
