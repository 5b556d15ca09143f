/// A predicate format string as the lexer reads it: Unicode scalars, with the errors that
/// point into it.
///
/// The lexer works on scalars so that a quote or backslash followed by a combining mark
/// still reads as punctuation; errors report offsets in characters, as people count them.
struct PredicateSource {
    /// The longest format string quoted whole in an error message.
    private static let quotedLimit = 160

    /// The format string.
    let format: String
    /// The format string's Unicode scalars.
    let scalars: [Unicode.Scalar]

    init(_ format: String) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
    }

    /// The character offset of the scalar at `scalarOffset`.
    func characterOffset(_ scalarOffset: Int) -> Int {
        let end = min(max(scalarOffset, 0), scalars.count)
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars[..<end])
        return String(prefix).count
    }

    /// The source text from `start` to `end` (scalar offsets) for an error message: in single
    /// quotes unless it is a quoted string already, and shortened when long.
    func excerpt(from start: Int, to end: Int) -> String {
        let lower = min(max(start, 0), scalars.count)
        let upper = min(max(end, lower), scalars.count)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[lower..<min(upper, lower + 24)])
        let text = String(view) + (upper - lower > 24 ? "…" : "")
        return text.hasPrefix("'") || text.hasPrefix("\"") ? text : "'\(text)'"
    }

    /// A syntax error: `problem` was found at scalar offset `offset`, with what was there instead.
    func syntaxError(_ problem: String, at offset: Int, found: String? = nil) -> FetchPredicateError {
        let position = characterOffset(offset)
        let tail = found.map { "; found \($0)" } ?? ""
        return FetchPredicateError(
            code: .syntax,
            message: "Syntax error: \(problem) at offset \(position) in \(quoted(around: position))\(tail).",
            offset: position)
    }

    /// An argument error about the placeholder at scalar offset `offset`.
    func argumentError(_ problem: String, at offset: Int?) -> FetchPredicateError {
        let position = offset.map(characterOffset)
        return FetchPredicateError(
            code: .argument, message: "Argument error: \(problem) in \(quoted(around: position ?? 0)).",
            offset: position)
    }

    /// The format string in double quotes, or an excerpt around `position` when it is long.
    private func quoted(around position: Int) -> String {
        let characters = Array(format)
        guard characters.count > Self.quotedLimit else { return "\"\(format)\"" }
        let half = Self.quotedLimit / 2
        let lower = max(0, min(position - half, characters.count - Self.quotedLimit))
        let upper = lower + Self.quotedLimit
        let head = lower > 0 ? "…" : ""
        let tail = upper < characters.count ? "…" : ""
        return "\"\(head)\(String(characters[lower..<upper]))\(tail)\""
    }
}
