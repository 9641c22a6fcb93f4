import Foundation

class Person: NSObject {
    @objc dynamic var first = ""
    @objc dynamic var last = ""
    @objc var full: String { first + " " + last }
    @objc class var keyPathsForValuesAffectingFull: Set<String> { ["first", "last"] }
    @objc class func automaticallyNotifiesObserversOfLast() -> Bool { false }
    override class func automaticallyNotifiesObservers(forKey key: String) -> Bool {
        key == "last" ? false : super.automaticallyNotifiesObservers(forKey: key)
    }
}
