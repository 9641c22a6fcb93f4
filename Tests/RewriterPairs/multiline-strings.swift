import Foundation

class Note: NSObject {
    @objc dynamic var text = """
        line one
        @objc dynamic is not an attribute here
        """
}
let n = Note()
print("""
    \(n.text)
    """)
