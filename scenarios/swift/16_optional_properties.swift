// Optional properties declared without an initializer start as nil, and
// their changes arrive optional twice over: Optional(nil) when set to nil,
// Optional(Optional("…")) for a value, plain nil when not asked for.
import Foundation

class Profile: NSObject {
    @objc dynamic var nickname: String?
    @objc dynamic var avatar: String?
}

let profile = Profile()
print(profile.nickname as Any, profile.avatar == nil)
let token = profile.observe(\.nickname, options: [.initial, .old, .new]) { profile, change in
    print("nickname:", change.oldValue as Any, "->", change.newValue as Any)
}
profile.nickname = "annie"
profile.nickname = nil
if let name = profile.nickname { print("has", name) } else { print("no nickname") }
profile.setValue("kvc", forKey: "nickname")
print(profile.nickname ?? "none")
