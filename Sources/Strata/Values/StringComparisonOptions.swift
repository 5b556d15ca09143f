/// Options for comparing strings, Core Data's `[c]`, `[d]` and `[cd]`.
public struct StringComparisonOptions: OptionSet, Sendable, Hashable {
    /// The options as bits.
    public let rawValue: UInt8
    /// Creates options from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `[c]`: compare with full Unicode case folding (`ß` equals `SS`).
    public static let caseInsensitive = StringComparisonOptions(rawValue: 1)
    /// `[d]`: ignore diacritics (`é` equals `e`).
    public static let diacriticInsensitive = StringComparisonOptions(rawValue: 2)
}

extension StringComparisonOptions {
    /// `string` as comparisons under these options see it: case-folded and without diacritics
    /// as asked, in NFC; `string` itself when the options are empty. Two strings compare under
    /// the options exactly as their folded forms compare by Unicode scalars (so a store can
    /// compare folded forms bytewise, as UTF-8).
    public func fold(_ string: String) -> String { AttributeValue.normalized(string, self) }
}
