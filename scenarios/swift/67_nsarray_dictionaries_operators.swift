// Collection operators on an NSArray of dictionaries, with the output the
// author recorded on a Mac: `sum = 96 | max = 16 | min = 12 | avg = 12 |
// count = 8` (@avg divides by all eight, the one without "height" counting
// as 0; @count ignores the path after it; @unionOfObjects skips nil).
// Source: gist TonnyXu/3447781 "KVC with special keyPath" (Objective-C),
// transcribed (research notes §3.17). The order of @distinctUnionOfObjects
// is a set's, which Apple does not promise (the recorded run gave
// 15,13,16,14,12): kvo-run's is ascending (SPEC §5).
import Foundation

let testDicts: NSArray = [["height": 12], ["height": 13], ["height": 13], ["height": 13],
                          ["height": 14], ["height": 15], ["height": 16], ["id": 17]]
let sum = testDicts.value(forKeyPath: "@sum.height")!
let max = testDicts.value(forKeyPath: "@max.height")!
let min = testDicts.value(forKeyPath: "@min.height")!
let avg = testDicts.value(forKeyPath: "@avg.height")!
let count = testDicts.value(forKeyPath: "@count.height")!
print("sum = \(sum) | max = \(max) | min = \(min) | avg = \(avg) | count = \(count)")
let distinctUnionOfObjects = testDicts.value(forKeyPath: "@distinctUnionOfObjects.height") as! NSArray
let unionOfObjects = testDicts.value(forKeyPath: "@unionOfObjects.height") as! NSArray
print("dis:", distinctUnionOfObjects.componentsJoined(by: ","))
print("union:", unionOfObjects.componentsJoined(by: ","))
