import Foundation

class A: NSObject { @objc dynamic var x = 0 }
let a = A()
var tokens: [NSKeyValueObservation] = []
tokens.append(a.observe(\.x) { _, _ in })
let more = [a.observe(\.x) { _, _ in }], byName = ["k": a.observe(\.x) { _, _ in }]
var made = [NSKeyValueObservation](), set = Set<NSKeyValueObservation>(), dict = [String: A]()
var token: NSKeyValueObservation?
var later: Optional<A> = nil
var again = a.observe(\.x) { _, _ in }
let named = a.observe(\.x) { _, _ in }
var watched: [A] = [] { didSet { print(watched.count) } }
var computed: [A] { [] }
let count = 3
let (first, second) = ([a], [a])
