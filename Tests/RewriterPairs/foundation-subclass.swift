import Foundation

class LabelledProgress: Progress {
    @objc dynamic var label = ""
}
class AppDefaults: UserDefaults {
    @objc dynamic var theme = "light"
}
extension UserDefaults {
    @objc dynamic var volume: Double { double(forKey: "volume") }
}
