/// Reads a format string into a ``FetchPredicate``: a recursive-descent parser over
/// ``PredicateLexer``'s tokens, with one token of lookahead.
///
/// This file holds the state and the token plumbing; the grammar is in
/// `PredicateParser+Predicates.swift` and `PredicateParser+Expressions.swift`, placeholders in
/// `PredicateParser+Arguments.swift`. Parentheses, `NOT`, function calls, aggregates,
/// `SUBQUERY` and `CAST` each nest one level; more than ``maximumDepth`` levels, or more than
/// the thread's stack has room for (see ``ThreadStack``), is a syntax error, so no input can
/// exhaust the stack, even on a thread with a small one.
struct PredicateParser {
    /// The deepest nesting accepted.
    static let maximumDepth = 500
    /// The stack kept free below the deepest level, for the calls each level makes.
    private static let stackMargin: UInt = 128 * 1024

    /// The tokenizer, and through it the format string.
    private var lexer: PredicateLexer
    /// The next token, once it has been read ahead.
    private var lookahead: PredicateToken?
    /// The scalar offset just past the last token consumed.
    private(set) var previousEnd = 0
    /// The arguments for the placeholders, in order.
    let arguments: [any PredicateArgument]
    /// How many placeholders have been read so far.
    var placeholderCount = 0
    /// The current nesting depth.
    private var depth = 0
    /// The lowest stack address nesting may reach.
    private let stackFloor = ThreadStack.floor(keeping: stackMargin)
    /// What parsing parentheses as a predicate, and as an expression, gave at each offset,
    /// shared by every copy of the parser, so that backtracking never parses a stretch of the
    /// format the same way twice: without it, parentheses nested in `SUBQUERY`s take time
    /// exponential in their depth, and parentheses around a comparison's expression time
    /// quadratic in it (each level tries a predicate first).
    let parenthesizedOutcomes = ParenthesizedOutcomes()

    /// Where the parser stands: what ``restore(_:)`` goes back to.
    struct Checkpoint {
        fileprivate let lexer: PredicateLexer
        fileprivate let lookahead: PredicateToken?
        fileprivate let previousEnd: Int
        fileprivate let placeholderCount: Int
        fileprivate let depth: Int
    }

    /// The outcome of parsing the parentheses at one offset one way.
    enum ParenthesizedOutcome<Parsed> {
        case parsed(Parsed, after: Checkpoint)
        case failed(FetchPredicateError)
    }

    /// The outcomes by the offset of the opening parenthesis.
    final class ParenthesizedOutcomes {
        var predicates: [Int: ParenthesizedOutcome<FetchPredicate>] = [:]
        var expressions: [Int: ParenthesizedOutcome<FetchExpression>] = [:]
    }

    /// Parses the parentheses opened by `token` with `parse` the first time, and afterwards
    /// gives back what that gave, from `outcomes`, moving to where the first parse ended.
    mutating func parseOnce<Parsed>(
        _ token: PredicateToken,
        _ outcomes: ReferenceWritableKeyPath<ParenthesizedOutcomes, [Int: ParenthesizedOutcome<Parsed>]>,
        _ parse: (inout PredicateParser) throws(FetchPredicateError) -> Parsed
    ) -> Result<Parsed, FetchPredicateError> {
        switch parenthesizedOutcomes[keyPath: outcomes][token.offset] {
        case .parsed(let parsed, let after)?:
            restore(after)
            return .success(parsed)
        case .failed(let error)?:
            return .failure(error)
        case nil:
            do {
                let parsed = try parse(&self)
                parenthesizedOutcomes[keyPath: outcomes][token.offset] = .parsed(parsed, after: checkpoint)
                return .success(parsed)
            } catch {
                parenthesizedOutcomes[keyPath: outcomes][token.offset] = .failed(error)
                return .failure(error)
            }
        }
    }

    /// The parser's position and nesting depth.
    var checkpoint: Checkpoint {
        Checkpoint(
            lexer: lexer, lookahead: lookahead, previousEnd: previousEnd, placeholderCount: placeholderCount,
            depth: depth)
    }

    /// Goes back, or forward, to `checkpoint`.
    mutating func restore(_ checkpoint: Checkpoint) {
        lexer = checkpoint.lexer
        lookahead = checkpoint.lookahead
        previousEnd = checkpoint.previousEnd
        placeholderCount = checkpoint.placeholderCount
        depth = checkpoint.depth
    }

    /// The format string being parsed.
    var source: PredicateSource { lexer.source }

    /// Creates a parser for `format` whose placeholders take `arguments`.
    init(format: String, arguments: [any PredicateArgument]) {
        self.lexer = PredicateLexer(PredicateSource(format))
        self.arguments = arguments
    }

    /// Parses the whole format string.
    ///
    /// - Throws: `FetchPredicateError` with code `.syntax` or `.argument`.
    mutating func parse() throws(FetchPredicateError) -> FetchPredicate {
        let predicate = try parseOr()
        try expectEnd("AND, OR or the end of the format")
        return predicate
    }

    /// Parses the whole format string as one expression (`price * 1.1`, `now()`).
    ///
    /// - Throws: `FetchPredicateError` with code `.syntax` or `.argument`.
    mutating func parseWholeExpression() throws(FetchPredicateError) -> FetchExpression {
        let expression = try parseExpression()
        try expectEnd("an operator or the end of the format")
        return expression
    }

    /// Checks that the format has ended and that every argument had a placeholder.
    private mutating func expectEnd(_ expected: String) throws(FetchPredicateError) {
        let token = try peek()
        guard token.kind == .end else { throw unexpected(expected, token) }
        if placeholderCount < arguments.count {
            throw source.argumentError(
                "\(Self.counting(arguments.count, "argument")) given for "
                    + "\(Self.counting(placeholderCount, "placeholder")); argument \(placeholderCount + 1) has no placeholder",
                at: nil)
        }
    }

    /// The next token, without consuming it.
    mutating func peek() throws(FetchPredicateError) -> PredicateToken {
        if let lookahead { return lookahead }
        let token = try lexer.next()
        lookahead = token
        return token
    }

    /// Consumes and returns the next token.
    @discardableResult
    mutating func advance() throws(FetchPredicateError) -> PredicateToken {
        let token = try peek()
        lookahead = nil
        previousEnd = token.end
        return token
    }

    /// Consumes the next token, which must be `symbol`.
    @discardableResult
    mutating func expect(_ symbol: PredicateToken.Symbol) throws(FetchPredicateError) -> PredicateToken {
        let token = try advance()
        guard token.is(symbol) else { throw unexpected("'\(symbol.rawValue)'", token) }
        return token
    }

    /// A syntax error: `expectation` was expected where `token` is.
    func unexpected(_ expectation: String, _ token: PredicateToken) -> FetchPredicateError {
        source.syntaxError("expected \(expectation)", at: token.offset, found: describe(token))
    }

    /// An error about the value from `token` to scalar offset `end`: an argument error when a
    /// placeholder supplied it, a syntax error otherwise.
    func valueError(_ problem: String, _ token: PredicateToken, end: Int) -> FetchPredicateError {
        let found = source.excerpt(from: token.offset, to: max(end, token.end))
        if case .placeholder(let placeholder) = token.kind {
            return source.argumentError(
                "\(problem); the argument for \(placeholder.spelling) at offset "
                    + "\(source.characterOffset(token.offset)) does not fit", at: token.offset)
        }
        return source.syntaxError(problem, at: token.offset, found: found)
    }

    /// `count` and `noun`, in the plural unless `count` is 1: "2 arguments".
    static func counting(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// How an error message shows `token`.
    func describe(_ token: PredicateToken) -> String {
        token.kind == .end ? "the end of the format" : source.excerpt(from: token.offset, to: token.end)
    }

    /// Enters one level of nesting at `token`; the caller leaves it with `leaveNesting()`.
    mutating func enterNesting(at token: PredicateToken) throws(FetchPredicateError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw source.syntaxError("nesting deeper than \(Self.maximumDepth) levels", at: token.offset)
        }
        guard ThreadStack.currentAddress() > stackFloor else {
            throw source.syntaxError(
                "nesting too deep for this thread's stack (\(depth) levels)", at: token.offset)
        }
    }

    /// Leaves a level entered with `enterNesting(at:)`.
    mutating func leaveNesting() {
        depth -= 1
    }
}
