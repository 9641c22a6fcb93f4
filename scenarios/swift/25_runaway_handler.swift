// A handler that changes the value it observes recurses; kvo-run stops it at
// --max-depth nested notifications, as a runtime error.
import Foundation

class Echo: NSObject {
    @objc dynamic var level = 0
}

let echo = Echo()
let token = echo.observe(\.level, options: [.new]) { echo, change in
    echo.level += 1
}
echo.level = 1
print("never printed")
