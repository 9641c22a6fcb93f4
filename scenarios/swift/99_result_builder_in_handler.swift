// A result builder's closure inside an observe handler (issue 41): the
// rewriter's statement marks inside bodies are declarations, which a
// builder leaves alone; as expressions they became `()` components and the
// program did not compile ("cannot convert value of type '()' to expected
// argument type 'String'").
import Foundation
@resultBuilder struct Lines {
    static func buildBlock(_ parts: String...) -> [String] { parts }
    static func buildEither(first: [String]) -> String { first.joined(separator: "+") }
    static func buildEither(second: [String]) -> String { second.joined(separator: "+") }
}
func report(@Lines _ body: () -> [String]) -> [String] { body() }
class Account: NSObject { @objc dynamic var balance = 0 }
let acct = Account()
let t = acct.observe(\.balance, options: [.new]) { _, change in
    let lines = report {
        "balance"
        "\(change.newValue!)"
    }
    print(lines.joined(separator: ": "))
}
acct.balance = 5
