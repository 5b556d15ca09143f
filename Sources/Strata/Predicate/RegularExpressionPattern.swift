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
        } catch {
            throw FetchPredicateError(
                code: .evaluation,
                message: "MATCHES was given '\(pattern)', which is not a valid ICU regular expression: \(error).",
                underlying: error
            )
        }
        guard let wholeMatch = Self.wholeMatchExpression(source, flags: flags) else {
            throw FetchPredicateError(
                code: .evaluation,
                message: "MATCHES cannot match '\(pattern)' against whole strings: it ends inside a quote or comment."
            )
        }
        expression = wholeMatch
        self.options = options
    }

    /// `source` anchored at both ends of the string. The anchor after the pattern must not be
    /// swallowed by a `\Q` quote or an extended-mode `#` comment left open at the end of the
    /// pattern; when it is, the wrapping group stays unclosed and does not compile, so the
    /// closers that end a quote (`\E`) and a comment (a newline) are tried in turn.
    private static func wholeMatchExpression(_ source: String, flags: NSRegularExpression.Options)
        -> NSRegularExpression?
    {
        for closer in ["", "\\E", "\n", "\\E\n"] {
            if let expression = try? NSRegularExpression(pattern: "\\A(?:" + source + closer + ")\\z", options: flags) {
                return expression
            }
        }
        return nil
    }

    /// Whether the whole of `string` matches.
    func matches(_ string: String) -> Bool {
        let subject = AttributeValue.normalized(string, options.intersection(.diacriticInsensitive))
        let range = NSRange(location: 0, length: subject.utf16.count)
        return expression.firstMatch(in: subject, options: [], range: range) != nil
    }
}
