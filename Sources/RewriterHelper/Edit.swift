struct Edit {
    let start: Int
    let end: Int
    let text: String
}
