import KVOCore

/// Spellings of SPEC §11.5 that kvo-run's scenarios use for validation
/// errors: `NSError(domain:code:description:)`, and `error.domain` /
/// `error.code` on a caught error (an NSError-bridged error on a Mac).
extension NSError {
    public convenience init(domain: String, code: Int, description: String) {
        self.init(domain: domain, code: code, userInfo: [NSLocalizedDescriptionKey: description])
    }
}

extension Error {
    public var domain: String { (self as NSError).domain }
    public var code: Int { (self as NSError).code }
    /// Apple's wording (corelibs says "could not").
    public var localizedDescription: String {
        let error = self as NSError
        if let description = error.userInfo[NSLocalizedDescriptionKey] as? String { return description }
        return "The operation couldn’t be completed. (\(error.domain) error \(error.code).)"
    }
}

enum _KVOErrors {
    /// NSError's description on a Mac: `Error Domain=D Code=1 "text" UserInfo={…}`.
    static func describe(_ error: Error) -> String {
        let error = error as NSError
        let text = (error.userInfo[NSLocalizedDescriptionKey] as? String).map { "\"\($0)\"" } ?? "\"(null)\""
        var result = "Error Domain=\(error.domain) Code=\(error.code) \(text)"
        if !error.userInfo.isEmpty {
            let entries = error.userInfo.keys.sorted().map { "\($0)=\(error.userInfo[$0] ?? "")" }
            result += " UserInfo={" + entries.joined(separator: ", ") + "}"
        }
        return result
    }

    /// A validation error, reported when thrown (SPEC §11.5) as a caught
    /// exception: Swift makes its caller handle it.
    static func reportThrown(_ error: Error) {
        let process = _KVOProcess.entered()
        defer { process.lock.leave() }
        process.output.emit(
            .exception(CocoaException(name: "NSError", reason: describe(error), depth: process.kvo.depth), caught: true)
        )
    }
}

/// Objective-C's `id *` out-parameter, as key-value validation takes it. On
/// Linux there is no autorelease pool: a plain pointer to the caller's variable.
public typealias AutoreleasingUnsafeMutablePointer<Pointee> = UnsafeMutablePointer<Pointee>
