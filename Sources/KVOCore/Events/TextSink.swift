/// Text being built: a `String`, or an output buffer that copies the bytes
/// straight into its block (KVORun's `OutputWriter`). Descriptions that a
/// trace prints a million times (a change dictionary) are written once,
/// generically, for both.
public protocol TextSink {
    mutating func appendText(_ text: String)
    mutating func appendLiteral(_ literal: StaticString)
    mutating func appendInt(_ number: Int)
    /// The value as a change dictionary shows it (`collectionDescription`).
    mutating func appendValue(_ value: Value)
}

extension String: TextSink {
    @inlinable public mutating func appendText(_ text: String) { self += text }
    @inlinable public mutating func appendLiteral(_ literal: StaticString) { self += literal.description }
    @inlinable public mutating func appendInt(_ number: Int) { self += String(number) }
    @inlinable public mutating func appendValue(_ value: Value) { value.describe(into: &self) }
}
