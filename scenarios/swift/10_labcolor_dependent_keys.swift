// objc.io issue 7's LabColor, as a Swift project writes it: the RGB
// components depend on the Lab components through
// keyPathsForValuesAffectingValue(forKey:), and color depends on the RGB
// components through the keyPathsForValuesAffecting<Key> naming convention.
import Foundation

class LabColor: NSObject {
    @objc dynamic var lComponent: Double = 50
    @objc dynamic var aComponent: Double = 0
    @objc dynamic var bComponent: Double = 0

    @objc var redComponent: Double { lComponent * 2 }
    @objc var greenComponent: Double { lComponent * 2 - aComponent }
    @objc var blueComponent: Double { lComponent * 2 - bComponent }
    @objc var color: String { "rgb(\(redComponent), \(greenComponent), \(blueComponent))" }

    override class func keyPathsForValuesAffectingValue(forKey key: String) -> Set<String> {
        var keyPaths = super.keyPathsForValuesAffectingValue(forKey: key)
        switch key {
        case "redComponent": keyPaths.insert("lComponent")
        case "greenComponent": keyPaths.formUnion(["lComponent", "aComponent"])
        case "blueComponent": keyPaths.formUnion(["lComponent", "bComponent"])
        default: break
        }
        return keyPaths
    }

    @objc class var keyPathsForValuesAffectingColor: Set<String> {
        ["redComponent", "greenComponent", "blueComponent"]
    }
}

final class ColorViewController: NSObject {
    let labColor: LabColor
    private var colorObservation: NSKeyValueObservation?
    private var repaints = 0

    init(labColor: LabColor) {
        self.labColor = labColor
        super.init()
        colorObservation = labColor.observe(\.color, options: [.initial, .new]) { [weak self] color, change in
            guard let self = self else { return }
            self.repaints += 1
            print("repaint #\(self.repaints):", change.newValue ?? "?")
        }
    }
}

let labColor = LabColor()
let controller = ColorViewController(labColor: labColor)
labColor.lComponent = 60
labColor.aComponent = 20
labColor.bComponent = -10
print(labColor.value(forKey: "color") as? String ?? "no colour")
