// UserDefaults observed through an @objc dynamic property declared in an
// extension, the property named as its default (gist strzempa/a46939399909166d48da6433a0adbc97:
// `extension UserDefaults { @objc dynamic var yourKey: Bool { ... } }` and
// `UserDefaults.standard.observe(\.yourKey, options: [.new])`). Every
// default is a KVO key of the defaults object (SPEC §11.7); the program's
// defaults live in memory: nothing reaches the user's real defaults. A
// removed default's new value is nil (KVO reads value(forKey:): NSNull).
import Foundation

extension UserDefaults {
    @objc dynamic var yourKey: Bool { return bool(forKey: "yourKey") }
}

let defaults = UserDefaults.standard
defaults.removeObject(forKey: "yourKey")
let observation = defaults.observe(\.yourKey, options: [.new]) { d, change in
    print("yourKey changed; newValue =", change.newValue.map { "\($0)" } ?? "nil", "bool(forKey:) =", d.bool(forKey: "yourKey"))
}
defaults.set(true, forKey: "yourKey")
defaults.set(false, forKey: "yourKey")
defaults.removeObject(forKey: "yourKey")
observation.invalidate()
