// observe(\.p) on a property Objective-C cannot see: Swift warns when it
// compiles, then traps when the key path has no string form.
import Foundation

class Quiz: NSObject {
    var score: Int = 0
}

let quiz = Quiz()
print("before")
let token = quiz.observe(\.score, options: [.new]) { quiz, change in print(change) }
print("never printed")
