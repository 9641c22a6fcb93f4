import KVOCore

/// A function or method; its body is compiled after every declaration is known.
final class FunctionBox {
    let name: String
    let parameters: [String]
    let isStatic: Bool
    let location: SourceLocation
    /// Argument labels of an `init`, as Swift writes them.
    var labels: [String] = []
    var body: Exec?
    var frameSize = 0
    init(name: String, parameters: [String], isStatic: Bool, location: SourceLocation) {
        self.name = name
        self.parameters = parameters
        self.isStatic = isStatic
        self.location = location
    }
}
