// Handlers are closures: they capture locals, count, and collect what they
// see; a closure stored in a dictionary runs from a handler.
import Foundation

class Download: NSObject {
    @objc dynamic var progress: Double = 0
    @objc dynamic var state: String = "idle"
}

let download = Download()
var seen: [Double] = []
var transitions = 0
let callbacks: [String: (String) -> Void] = [
    "done": { _ in print("download finished after \(transitions) transitions") },
    "failed": { print("failed:", $0) },
]

let progressToken = download.observe(\.progress, options: [.new]) { _, change in
    if let value = change.newValue { seen.append(value) }
}
let stateToken = download.observe(\.state, options: [.old, .new]) { download, change in
    transitions += 1
    print("state \(change.oldValue ?? "?") -> \(change.newValue ?? "?")")
    callbacks[download.state]?(download.state)
}

download.state = "running"
for step in stride(from: 0.25, through: 1.0, by: 0.25) {
    download.progress = step
}
download.state = "done"
print(seen, seen.reduce(0, +))
let percentages = seen.map { Int($0 * 100) }.filter { $0 > 30 }
print(percentages)
