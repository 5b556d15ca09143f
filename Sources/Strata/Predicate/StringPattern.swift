/// A compiled string operator and its argument: tests texts exactly as the in-memory evaluator
/// tests `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` and `MATCHES`, so that a store can run
/// the same test inside its query engine (the SQLite store registers it as an SQL function).
///
/// ```swift
/// let pattern = try StringPattern(.like, pattern: "stra*e", options: .caseInsensitive)
/// pattern.matches("STRASSE")  // true
/// ```
public struct StringPattern {
    /// The string operators.
    public enum Kind: Sendable, Hashable {
        /// `BEGINSWITH`.
        case prefix
        /// `ENDSWITH`.
        case suffix
        /// `CONTAINS` on a string, or `IN` with a string on the right.
        case substring
        /// `LIKE`, with `*` and `?` wildcards.
        case like
        /// `MATCHES`, an ICU regular expression.
        case regularExpression
    }

    private enum Matcher {
        case scalars(Kind, [Unicode.Scalar], StringComparisonOptions)
        case like(LikePattern)
        case regularExpression(RegularExpressionPattern)
    }

    private let matcher: Matcher

    /// Compiles `pattern` for the operator `kind` under `options`.
    ///
    /// - Throws: ``FetchPredicateError`` with code `.evaluation` when a `MATCHES` pattern is
    ///   not a valid regular expression.
    public init(_ kind: Kind, pattern: String, options: StringComparisonOptions) throws(FetchPredicateError) {
        switch kind {
        case .prefix, .suffix, .substring: matcher = .scalars(kind, Self.folded(pattern, options), options)
        case .like: matcher = .like(LikePattern(pattern, options: options))
        case .regularExpression: matcher = .regularExpression(try RegularExpressionPattern(pattern, options: options))
        }
    }

    /// Whether `text` passes the test.
    public func matches(_ text: String) -> Bool {
        switch matcher {
        case .scalars(.prefix, let pattern, let options): Self.folded(text, options).starts(with: pattern)
        case .scalars(.suffix, let pattern, let options):
            Self.folded(text, options).reversed().starts(with: pattern.reversed())
        case .scalars(_, let pattern, let options): Self.contains(Self.folded(text, options), pattern)
        case .like(let pattern): pattern.matches(text)
        case .regularExpression(let pattern): pattern.matches(text)
        }
    }

    /// The Unicode scalars of `string` folded under `options`, as
    /// ``AttributeValue/compare(_:options:)`` compares them.
    private static func folded(_ string: String, _ options: StringComparisonOptions) -> [Unicode.Scalar] {
        Array(AttributeValue.normalized(string, options).unicodeScalars)
    }

    /// Whether `needle` occurs as a contiguous run in `haystack`; true for an empty `needle`.
    private static func contains(_ haystack: [Unicode.Scalar], _ needle: [Unicode.Scalar]) -> Bool {
        if needle.isEmpty { return true }
        if needle.count > haystack.count { return false }
        for start in 0...(haystack.count - needle.count) {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}

@available(*, unavailable) extension StringPattern: Sendable {}
