/// Finding text in text by its UTF-8 bytes. Not `String.contains(_:)` (of
/// _StringProcessing): it builds a table keyed by Character, and the first
/// such table makes the Swift runtime scan every protocol-conformance record
/// in kvo-run for Character's Hashable (about half a million instructions of
/// each start-up, most of them swift-syntax's records).
public enum UTF8Search {
    /// How many times `needle` occurs in `text` (overlapping ones included),
    /// counted up to `limit`. An empty needle occurs once.
    public static func count(of needle: String, in text: String, upTo limit: Int = .max) -> Int {
        var text = text
        var needle = needle
        return text.withUTF8 { text in
            needle.withUTF8 { needle in
                guard let first = needle.first else { return min(1, limit) }
                guard needle.count <= text.count else { return 0 }
                var found = 0
                var index = 0
                let last = text.count - needle.count
                while index <= last && found < limit {
                    if text[index] == first
                        && UnsafeBufferPointer(rebasing: text[index..<(index + needle.count)]).elementsEqual(needle)
                    {
                        found += 1
                    }
                    index += 1
                }
                return found
            }
        }
    }

    /// Whether `needle` occurs in `text`.
    public static func contains(_ needle: String, in text: String) -> Bool {
        count(of: needle, in: text, upTo: 1) == 1
    }
}
