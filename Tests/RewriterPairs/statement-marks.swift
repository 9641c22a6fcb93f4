import Foundation

func f() {
    print(1)
    if true {
        print(2)
    }
}
f()
for i in 0..<2 { print(i) }
let square: (Int) -> Int = { $0 * $0 }
