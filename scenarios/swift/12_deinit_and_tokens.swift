// deinit runs when ARC frees an object, and a token held in a property ends
// with its holder: the observation stops the moment the holder goes away.
import Foundation

class Thermostat: NSObject {
    @objc dynamic var temperature: Double = 20
    deinit { print("thermostat freed") }
}

class Display: NSObject {
    let name: String
    private var token: NSKeyValueObservation?

    init(name: String, watching thermostat: Thermostat) {
        self.name = name
        super.init()
        token = thermostat.observe(\.temperature, options: [.new]) { [unowned self] _, change in
            print("\(self.name) shows \(change.newValue!)")
        }
    }

    deinit { print("\(name) freed") }
}

let thermostat = Thermostat()
var hall: Display? = Display(name: "hall", watching: thermostat)
var kitchen: Display? = Display(name: "kitchen", watching: thermostat)
thermostat.temperature = 21.5
hall = nil
thermostat.temperature = 22
print(thermostat.observationInfo)
kitchen = nil
thermostat.temperature = 23
print(thermostat.observationInfo)

func scoped() {
    let local = Thermostat()
    let token = local.observe(\.temperature) { _, _ in print("local change") }
    local.temperature = 1
    _ = token
}
scoped()
print("done")
