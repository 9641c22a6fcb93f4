import Foundation

@objcMembers class Shape: NSObject {
    var sides = 3
    @nonobjc var hidden = 0
    @objc(area) dynamic var size = 1.0
}
