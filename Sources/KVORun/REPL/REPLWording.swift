import KVOScript

// What the REPL says about the session's data: the words of `:info`,
// `:objects`, `:classes` and of the comments `:save` writes. The language
// (KVOScript) returns the data; the words are the REPL's.

extension ObservationInfoProblem {
    var replText: String {
        switch self {
        case .notAName(let shown):
            return ":info takes the name of a variable holding an object, as in ':info acct'; '\(shown)' is not a name"
        case .noVariable(let name, let suggestion):
            return "no variable named '\(name)'\(suggestion); :objects lists the objects"
        case .notAnObject(let name, let typeName):
            return "'\(name)' holds \(typeName), not an object; :info shows an object's observation info"
        case .released(let name, let description): return "'\(name)' is a released object (\(description))"
        }
    }
}

extension ObjectSummary {
    /// `acct: <Account: acct>, observed (2 observances)`.
    var replLine: String {
        let stateText: String
        switch state {
        case .released: stateText = "released"
        case .notObserved: stateText = "not observed"
        case .observed(let count): stateText = "observed (\(count) observance\(count == 1 ? "" : "s"))"
        }
        return "\(name): \(description), \(stateText)"
    }
}

extension ClassSummary {
    /// `Account: NSObject { balance: Int, owner: Person }`.
    var replLine: String {
        "\(name): \(superclass) { \(properties.map { "\($0.name): \($0.type)" }.joined(separator: ", ")) }"
    }
}

enum REPLWording {
    /// After a problem raised in code an earlier entry declared (`Session.earlierEntryNote`).
    static let earlierEntryNote = " (in code declared by an earlier entry)"

    /// The text `:save` writes for an entry's replay.
    static func saved(_ parts: [ReplayPart]) -> String {
        parts.map(saved(_:)).joined(separator: "\n")
    }

    static func saved(_ part: ReplayPart) -> String {
        switch part {
        case .asTyped(let piece): return piece
        case .caught(let piece): return "do {\n" + piece + "\n} catch {\n}"
        case .entryMarker: return Session.entryMarker
        case .commentedOut(let piece, let reason):
            let note: String
            switch reason {
            case .raisedAndBoundNothing: note = "raised an uncaught exception in the session; bound nothing"
            case .stoppedByRuntimeError: note = "stopped by a runtime error in the session"
            case .notRun: note = "not run in the session: an earlier statement of its entry stopped"
            }
            return "// (\(note))\n"
                + piece.split(separator: "\n", omittingEmptySubsequences: false).map { "// " + $0 }
                .joined(separator: "\n")
        }
    }
}
