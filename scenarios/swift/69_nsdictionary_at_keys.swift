// An NSDictionary's value(forKey:) is object(forKey:), except for a key that
// starts with "@": that one asks the dictionary itself, without the "@"
// ("@count" is its count; "@4321" is NSObject's valueForKey: of "4321", which
// raises NSUnknownKeyException), as Apple's NSDictionary documents.
// Source: gist TheiOSDude/9f505ce0ec8810877f1f9b5a4057ae30 (research notes
// §3.19); swift-corelibs-foundation traps on both. The gist's
// `print(dictionary[key] as Any)` prints the NSString bare, as on a Mac
// (`Optional(Test Value)`). The exception's receiver is NSDictionary's
// description on one line, quoted as Foundation quotes
// (`"@123" = "Test Value";`).
import Foundation

let dictionary = NSMutableDictionary()
let key = "@123"
dictionary[key] = "Test Value"
print(dictionary[key] as Any)                         // subscript = object(forKey:)
print(dictionary.value(forKey: "@count")!)            // "@count" -> [super valueForKey:"count"] -> 1
let newKey = "@4321"
dictionary[newKey] = "New Test Value"
let newValue = dictionary.value(forKey: newKey)       // strips "@", asks NSObject KVC for "4321"
print(newValue as Any)
