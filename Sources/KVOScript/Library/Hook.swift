/// The NSObject methods a scenario class can override, with what they take.
struct Hook {
    let name: String
    let isStatic: Bool
    let parameters: Int
    let signature: String

    static let all = [
        Hook(name: "observeValue", isStatic: false, parameters: 4, signature: "(keyPath, object, change, context)"),
        Hook(name: "setNilValueForKey", isStatic: false, parameters: 1, signature: "(key)"),
        Hook(name: "valueForUndefinedKey", isStatic: false, parameters: 1, signature: "(key)"),
        Hook(name: "setValueForUndefinedKey", isStatic: false, parameters: 2, signature: "(value, key)"),
        Hook(name: "automaticallyNotifiesObservers", isStatic: true, parameters: 1, signature: "(key)"),
        Hook(name: "keyPathsForValuesAffecting", isStatic: true, parameters: 1, signature: "(key)"),
    ]
}
