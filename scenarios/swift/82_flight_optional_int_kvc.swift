// KVC into a Swift class: a String and an Int set by key, read back by
// value(forKey:) (an NSString and an NSNumber inside Optionals), and the
// page's point that an `Int?` cannot be set by KVC ("error, field cannot be
// optional"): `Int?` has no Objective-C type, so the property is invisible to
// KVC and setValue raises NSUnknownKeyException naming `main.Flight`.
// Source: https://boloorian.org/kvc.html (class Flight: NSObject, aircraft,
// passengerCount: Int?, maxPassengerCount). Changed: written for Swift 3,
// where NSObject members were @objc implicitly, so `@objc` is added to the
// two properties that can have it; the prints are ours, and the
// passengerCount line, the page's failing one, is last.
import Foundation

class Flight : NSObject {
    @objc var aircraft:String
    var passengerCount:Int? = 0
    @objc var maxPassengerCount:Int = 0
    override init() {
        aircraft = "Boeing 747"
    }
}

var flight:Flight = Flight()
print(flight.value(forKey: "aircraft") as Any)
flight.setValue("Airbus 380", forKey:"aircraft") // Ok, It works!
flight.setValue(800, forKey:"maxPassengerCount") //ok!,field is not optional
print(flight.aircraft, flight.maxPassengerCount)
print(flight.value(forKey: "aircraft") as Any, flight.value(forKey: "maxPassengerCount") as Any)
flight.setValue(400, forKey:"passengerCount") // error,field cannot be optional
print("not reached")
