// objc.io issue 7's Contact: key-value validation trims the name; KVC's
// setValue never validates. Spelled in Swift, with a thrown NSError.
import Foundation

class Contact: NSObject {
    @objc dynamic var name: String = ""

    @objc func validateName(_ value: Any?) throws -> Any? {
        guard let name = value as? String else { return "" }
        if name.count > 20 {
            throw NSError(domain: "Contact", code: 1, description: "Name too long")
        }
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

let contact = Contact()
let token = contact.observe(\.name, options: [.new]) { contact, change in print("name is now", change.newValue!) }

func nameFieldEditingDidEnd(_ text: String) {
    do {
        let name = try contact.validateValue(text, forKey: "name") as! String
        contact.name = name
    } catch {
        print("present to the user:", error.localizedDescription, error.domain, error.code)
    }
}

nameFieldEditingDidEnd("  Ann Smith \n")
nameFieldEditingDidEnd("Bartholomew Montgomery-Smythe")
print(try contact.validateValue(nil, forKey: "name"))
contact.setValue("  untrimmed  ", forKey: "name")       // KVC does not validate
print(contact.name.hasPrefix(" "), contact.name.uppercased())
try contact.validateValue("Bartholomew Montgomery-Smythe", forKey: "name")
