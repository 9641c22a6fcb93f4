import Foundation

public class Model: NSObject {
    @objc public dynamic var value = 0
}
final class Local: NSObject {
    @objc dynamic var flag = false
}
