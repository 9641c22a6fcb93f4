import SwiftSyntax

/// The program's own `#sourceLocation` directives. A rewritten program's
/// directives after inserted lines must say what the user's say where they
/// rule (swiftc on a Mac names the file and line a directive gives), and a
/// user's `#sourceLocation()` returns to the user's file, never to the
/// rewritten file in kvo-run's cache that swiftc compiles.
final class ProgramSourceLocations: SyntaxVisitor {
    struct Directive {
        /// The directive's last line: it rules from the next one on.
        let line: Int
        /// The file literal's text as written and the line of the line after
        /// the directive; nil for `#sourceLocation()`.
        let target: (literal: String, line: Int)?
        /// The directive's bytes in the source, for `#sourceLocation()`'s replacement.
        let start: Int
        let end: Int
    }

    private let source: [UInt8]
    private let converter: SourceLocationConverter
    private(set) var directives: [Directive] = []

    init(source: String, converter: SourceLocationConverter) {
        self.source = Array(source.utf8)
        self.converter = converter
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: PoundSourceLocationSyntax) -> SyntaxVisitorContinueKind {
        let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = node.endPositionBeforeTrailingTrivia.utf8Offset
        let line = converter.location(for: node.endPositionBeforeTrailingTrivia).line
        var target: (String, Int)?
        if let arguments = node.arguments {
            let from = arguments.fileName.openingQuote.endPositionBeforeTrailingTrivia.utf8Offset
            let to = arguments.fileName.closingQuote.positionAfterSkippingLeadingTrivia.utf8Offset
            // A directive swiftc rejects (no line number, a damaged literal)
            // is its error to report: it is left as it is and rules nothing here.
            guard from <= to, to <= source.count, let number = Int(arguments.lineNumber.text) else {
                return .skipChildren
            }
            target = (String(decoding: source[from..<to], as: UTF8.self), number)
        }
        directives.append(Directive(line: line, target: target, start: start, end: end))
        return .skipChildren
    }

    /// The directive ruling `line` (the last one before it), if any.
    func ruling(_ line: Int) -> Directive? {
        directives.last { $0.line < line }
    }
}
