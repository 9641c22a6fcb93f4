// A trap inside an observe handler is reported at the handler, not at the
// statement whose change delivered to it: here a handler of one expression
// on the line of its observe call (which has no statement mark of its own).
import Foundation
class Player: NSObject {
    @objc dynamic var score = 0
}
let player = Player()
let t = player.observe(\.score, options: [.old]) { _, change in
    print(change.newValue!)
}
let u = player.observe(\.score) { _, change in print(change.newValue!) }
player.score = 2
