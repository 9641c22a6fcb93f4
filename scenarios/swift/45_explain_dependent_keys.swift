// kvo-run: --explain
// --explain on a compiled Swift program: the engine's steps, as for a
// scenario (scenarios/explain/03_dependent_chain.kvo is this run in the
// scenario language). Dependent keys in Apple's spelling: lComponent affects
// redComponent and greenComponent, which affect color. The observer of color
// is told once, through the first chain found (a class hook returns a Set,
// which has no order: the runtime tries its keys sorted, greenComponent
// first), the observer of redComponent directly. Then a token held by a
// local ends with its scope, and the change after it tells only swatch.
import Foundation

class LabColor: NSObject {
    @objc dynamic var lComponent: Double = 50
    @objc dynamic var aComponent: Double = 0

    @objc dynamic var redComponent: Double { lComponent * 2 }
    @objc class var keyPathsForValuesAffectingRedComponent: Set<String> { ["lComponent"] }
    @objc dynamic var greenComponent: Double { lComponent * 2 - aComponent }
    @objc class var keyPathsForValuesAffectingGreenComponent: Set<String> { ["lComponent", "aComponent"] }

    @objc dynamic var color: String { "rgb(\(redComponent), \(greenComponent))" }
    @objc class var keyPathsForValuesAffectingColor: Set<String> { ["redComponent", "greenComponent"] }
}
class Label: NSObject {
    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {}
}

let labColor = LabColor()
let swatch = Label()
let redLabel = Label()
labColor.addObserver(swatch, forKeyPath: "color", options: [.new, .old], context: nil)
labColor.addObserver(redLabel, forKeyPath: "redComponent", options: [.new], context: nil)
labColor.lComponent = 60

func watchOnce() {
    let token = labColor.observe(\.aComponent) { color, change in print("a changed") }
    labColor.aComponent = 1
}
watchOnce()
labColor.aComponent = 2
