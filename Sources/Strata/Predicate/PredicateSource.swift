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

    /// Where the characters start, found once, when the first error needs them.
    private let characters: CharacterMap

    init(_ format: String) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
        self.characters = CharacterMap(format)
    }

    /// The character offset of the scalar at `scalarOffset`: how many characters start before
    /// it, so a scalar inside a character counts that character.
    func characterOffset(_ scalarOffset: Int) -> Int {
        let end = min(max(scalarOffset, 0), scalars.count)
        return characters.countsBefore[end]
    }

    /// The text of the scalars from `lower` to `upper`.
    private func text(from lower: Int, to upper: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[lower..<upper])
        return String(view)
    }

    /// The source text from `start` to `end` (scalar offsets) for an error message: in single
    /// quotes unless it is a quoted string already, and shortened when long.
    func excerpt(from start: Int, to end: Int) -> String {
        let lower = min(max(start, 0), scalars.count)
        let upper = min(max(end, lower), scalars.count)
        let text = text(from: lower, to: min(upper, lower + 24)) + (upper - lower > 24 ? "…" : "")
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
        let starts = characters.starts
        guard starts.count > Self.quotedLimit else { return "\"\(format)\"" }
        let half = Self.quotedLimit / 2
        let lower = max(0, min(position - half, starts.count - Self.quotedLimit))
        let upper = lower + Self.quotedLimit
        let head = lower > 0 ? "…" : ""
        let tail = upper < starts.count ? "…" : ""
        let excerpt = text(from: starts[lower], to: upper < starts.count ? starts[upper] : scalars.count)
        return "\"\(head)\(excerpt)\(tail)\""
    }
}

/// Where a format string's characters start among its scalars, worked out on first use and
/// then shared by every copy of the source. Backtracking makes errors that are never thrown,
/// several at each level of nesting, so an error must not cost a pass over the format.
///
/// Whether a character ends before a scalar does not depend on the scalars after that one,
/// so the characters of a prefix are the characters that start in it.
private final class CharacterMap {
    private let format: String
    private lazy var layout: (starts: [Int], countsBefore: [Int]) = {
        var starts: [Int] = []
        var countsBefore = [0]
        for character in format {
            starts.append(countsBefore.count - 1)
            countsBefore.append(contentsOf: repeatElement(starts.count, count: character.unicodeScalars.count))
        }
        return (starts, countsBefore)
    }()

    /// The scalar offset at which each character starts.
    var starts: [Int] { layout.starts }
    /// For each scalar offset, and the end, how many characters start before it.
    var countsBefore: [Int] { layout.countsBefore }

    init(_ format: String) {
        self.format = format
    }
}
