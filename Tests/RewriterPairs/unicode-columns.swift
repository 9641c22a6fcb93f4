import Foundation

class Café: NSObject {
    @objc dynamic var crème = "brûlée"  // 🍮
    @objc dynamic var 価格 = 4.5
}
let café = Café()
café.crème = "caramel"
