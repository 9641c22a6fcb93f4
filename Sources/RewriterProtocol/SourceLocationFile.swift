/// The file name in a rewritten program's `#sourceLocation(file: "…", line: N)`.
///
/// The name is a string literal, so a `"`, a `\` or a newline in a file
/// name would end it or break the directive: each is written as Swift's
/// escape. swiftc (6.x) prints the literal's text as written, escapes and
/// all, in its diagnostics, so kvo-run looks for this same text in swiftc's
/// output and names the user's own file in its place. Both sides spell it
/// here, the one place.
public enum SourceLocationFile {
    /// The line the rewriter puts first in code it adds to a class (its KVC
    /// table, `_kvoDescribe`); written out as a `#sourceLocation` naming
    /// `generatedPrefix` + the user's file literal, at the line of the
    /// class's closing brace.
    public static let generatedMarker = "#kvoGeneratedCode"
    /// swiftc's errors in that code follow from an error in the user's
    /// (an unknown type, a class declared twice): kvo-run leaves them out,
    /// or names the class's file and line when they are the only ones.
    public static let generatedPrefix = "kvo-run's KVC table for the class in "

    /// `name` as the text between the quotes of a static string literal.
    public static func literal(_ name: String) -> String {
        var text = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\0": text += "\\0"
            // Other control characters (C0, DEL, C1): a string literal may
            // not hold them as they are.
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                text += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
