import Foundation

/// A compiled `MATCHES` pattern: an ICU regular expression (through Foundation's
/// `NSRegularExpression`) that must match the whole string.
///
/// `[c]` makes the match case-insensitive; `[d]` removes diacritics from both the pattern and
/// the string before matching.
struct RegularExpressionPattern {
    private let expression: NSRegularExpression
    private let options: StringComparisonOptions

    /// Compiles `pattern` for strings compared under `options`.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation`, naming the pattern, when it is not
    ///   a valid regular expression.
    init(_ pattern: String, options: StringComparisonOptions) throws(FetchPredicateError) {
        let source = AttributeValue.normalized(pattern, options.intersection(.diacriticInsensitive))
        let flags: NSRegularExpression.Options = options.contains(.caseInsensitive) ? [.caseInsensitive] : []
        do {
            // The pattern is checked alone first: wrapped, an unbalanced one such as "a)(b"
            // would become valid.
            _ = try NSRegularExpression(pattern: source, options: flags)
            expression = try NSRegularExpression(pattern: "\\A(?:" + source + ")\\z", options: flags)
        } catch {
            throw FetchPredicateError(
                code: .evaluation,
                message: "MATCHES was given '\(pattern)', which is not a valid ICU regular expression."
            )
        }
        self.options = options
    }

    /// Whether the whole of `string` matches.
    func matches(_ string: String) -> Bool {
        let subject = AttributeValue.normalized(string, options.intersection(.diacriticInsensitive))
        let range = NSRange(location: 0, length: subject.utf16.count)
        return expression.firstMatch(in: subject, options: [], range: range) != nil
    }
}
