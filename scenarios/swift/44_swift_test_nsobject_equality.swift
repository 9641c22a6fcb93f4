// source: swiftlang/swift test/stdlib/NSObject.swift, Swift's own test of
// NSObject's == and hashValue, run on macOS (its CHECK lines are what a Mac
// prints): the NoisyEqual, NSObject, NoisyHash, ValueLike and D parts as found,
// less the four lines comparing o1 with `10 as NSNumber` (Linux's NSNumber is
// not kvo-run's NSObject; see docs/swift-programs.md).
import Foundation

func printEquality<T : Equatable>(_ lhs: T, _ rhs: T, _ lhsName: String, _ rhsName: String) {
  if lhs == lhs {
    print("\(lhsName) == \(lhsName)")
  }
  if lhs != lhs {
    print("\(lhsName) != \(lhsName)")
  }
  if lhs == rhs {
    print("\(lhsName) == \(rhsName)")
  }
  if lhs != rhs {
    print("\(lhsName) != \(rhsName)")
  }
}

func printIdentity(_ lhs: AnyObject, _ rhs: AnyObject, _ lhsName: String, _ rhsName: String) {
  if lhs === lhs {
    print("\(lhsName) === \(lhsName)")
  }
  if lhs !== lhs {
    print("\(lhsName) !== \(lhsName)")
  }
  if lhs === rhs {
    print("\(lhsName) === \(rhsName)")
  }
  if lhs !== rhs {
    print("\(lhsName) !== \(rhsName)")
  }
}

print("NoisyEqual ==")
class NoisyEqual : NSObject {
  override func isEqual(_ rhs: Any?) -> Bool {
    print("wow much equal")
    return super.isEqual(rhs)
  }
}

let n1 = NoisyEqual.init()
let n2 = NoisyEqual.init()
printIdentity(n1, n2, "n1", "n2")
printEquality(n1, n2, "n1", "n2")
print("done NoisyEqual ==")

print("NSObject ==")
let o1 = NSObject.init()
let o2 = NSObject.init()
printIdentity(o1, o2, "o1", "o2")
printEquality(o1, o2, "o1", "o2")
print("done NSObject ==")

func printHashValue<T : Hashable>(_ x: T, _ name: String) {
  print("\(name) hashes to \(x.hashValue)")
}

class NoisyHash : NSObject {
  override var hash : Int {
    print("so hash")
    return super.hash
  }
}

print("NoisyHash hashValue")
let nh = NoisyHash.init()
printHashValue(nh, "nh")
print("done NoisyHash hashValue")

class ValueLike : NSObject {
  var x: Int

  init(int: Int) {
    x = int
    super.init()
  }

  override func isEqual(_ rhs: Any?) -> Bool {
    if let rhs2 = rhs as? ValueLike {
      return x == rhs2.x
    }
    return false
  }

  override var hash : Int {
    return x
  }
}

print("ValueLike hashValue")
let sh1 = ValueLike.init(int:10)
let sh2 = ValueLike.init(int:20)
let sh3 = ValueLike.init(int:10)
printIdentity(sh1, sh2, "sh1", "sh2")
printIdentity(sh1, sh3, "sh1", "sh3")
printIdentity(sh2, sh3, "sh2", "sh3")
printEquality(sh1, sh2, "sh1", "sh2")
printEquality(sh1, sh3, "sh1", "sh3")
printEquality(sh2, sh3, "sh2", "sh3")
printEquality(sh1.hashValue, sh2.hashValue, "sh1 hash", "sh2 hash")
printEquality(sh1.hashValue, sh3.hashValue, "sh1 hash", "sh3 hash")
printEquality(sh2.hashValue, sh3.hashValue, "sh2 hash", "sh3 hash")
var dict = Dictionary<ValueLike, Int>()
dict[sh1] = sh1.x
dict[sh2] = sh2.x
print("sh1 \(dict[sh1]!)")
print("sh2 \(dict[sh2]!)")
print("sh3 \(dict[sh3]!)")
print("done ValueLike hashValue")

class D : NSObject {}
print(D.self) // CHECK-NEXT: D
print(_getSuperclass(D.self) == NSObject.self) // CHECK-NEXT: true
print(_getSuperclass(_getSuperclass(D.self)!) == nil) // CHECK-NEXT: true
