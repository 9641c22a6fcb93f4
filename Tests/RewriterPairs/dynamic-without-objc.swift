import Foundation

class Player: NSObject {
    dynamic var score = 0
}
