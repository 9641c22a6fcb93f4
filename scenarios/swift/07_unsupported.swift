// kvo-run: --expect-errors
// Swift that a scenario does not model: each error names the construct and what to write instead.
import Foundation

struct Point { var x = 0 }
protocol Named { }
class Box<T>: NSObject { }
let scores = ["Ann": 1]
let f = { print("hi") }
let p = \.balance
