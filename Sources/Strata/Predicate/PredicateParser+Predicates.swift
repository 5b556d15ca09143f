/// The predicate half of the grammar:
/// ```
/// predicate  := and ( (OR | ||) and )*
/// and        := not ( (AND | &&) not )*
/// not        := (NOT | !) not | primary
/// primary    := '(' predicate ')' | TRUEPREDICATE | FALSEPREDICATE | comparison
/// comparison := [ANY | SOME | ALL | NONE] expression operator ['[' c | d | cd ']'] expression
/// ```
/// `NONE x op y` reads as `NOT (ANY x op y)`, as in Core Data. Keywords ignore ASCII case.
extension PredicateParser {
    /// Parses `predicate`: operands joined by `OR`.
    mutating func parseOr() throws(FetchPredicateError) -> FetchPredicate {
        var operands = [try parseAnd()]
        while try isConnective(.or, .or) {
            try advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws(FetchPredicateError) -> FetchPredicate {
        var operands = [try parseNot()]
        while try isConnective(.and, .and) {
            try advance()
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func isConnective(
        _ keyword: PredicateKeyword, _ symbol: PredicateToken.Symbol
    ) throws(FetchPredicateError) -> Bool {
        let token = try peek()
        return token.keyword == keyword || token.is(symbol)
    }

    private mutating func parseNot() throws(FetchPredicateError) -> FetchPredicate {
        let token = try peek()
        guard token.keyword == .not || token.is(.not) else { return try parsePrimaryPredicate() }
        try advance()
        try enterNesting(at: token)
        defer { leaveNesting() }
        return .not(try parseNot())
    }

    private mutating func parsePrimaryPredicate() throws(FetchPredicateError) -> FetchPredicate {
        let token = try peek()
        if token.is(.openParenthesis) { return try parseParenthesized(token) }
        switch token.keyword {
        case .truePredicate:
            try advance()
            return .constant(true)
        case .falsePredicate:
            try advance()
            return .constant(false)
        default:
            return try parseComparison()
        }
    }

    /// Parses a predicate in parentheses, or, when the parentheses hold an expression instead
    /// (`(price - discount) * 2 > 10`), a comparison starting with it. When neither parses, the
    /// error that got further is thrown. The predicate's outcome is kept by offset
    /// (``parseOnce(_:_:_:)``), so that parsing the same parentheses again costs nothing.
    private mutating func parseParenthesized(_ token: PredicateToken) throws(FetchPredicateError) -> FetchPredicate {
        let saved = checkpoint
        let predicate = parseOnce(token, \.predicates) { (parser) throws(FetchPredicateError) in
            try parser.parsePredicateInParentheses(token)
        }
        guard case .failure(let predicateError) = predicate else { return try predicate.get() }
        restore(saved)
        do {
            return try parseComparison()
        } catch {
            throw (error.offset ?? 0) > (predicateError.offset ?? 0) ? error : predicateError
        }
    }

    private mutating func parsePredicateInParentheses(
        _ token: PredicateToken
    ) throws(FetchPredicateError) -> FetchPredicate {
        try advance()
        try enterNesting(at: token)
        defer { leaveNesting() }
        let inner = try parseOr()
        try expect(.closeParenthesis)
        return inner
    }

    private mutating func parseComparison() throws(FetchPredicateError) -> FetchPredicate {
        let first = try peek()
        var modifier = ComparisonPredicate.Modifier.direct
        var negated = false
        switch first.keyword {
        case .any, .someQuantifier: modifier = .any
        case .all: modifier = .all
        case .noneQuantifier:
            modifier = .any
            negated = true
        default:
            guard canStartExpression(first) else { throw unexpected("a predicate", first) }
        }
        if modifier != .direct { try advance() }
        let left = try parseExpression()
        let operatorToken = try advance()
        guard let comparisonOperator = Self.comparisonOperator(operatorToken) else {
            throw unexpected("a comparison operator such as ==, <, IN or CONTAINS", operatorToken)
        }
        let options = try parseOptions()
        let rightToken = try peek()
        let right = try parseExpression()
        if comparisonOperator == .between {
            guard case .aggregate(let bounds) = right, bounds.count == 2 else {
                throw valueError("BETWEEN needs two bounds such as {1, 10}", rightToken, end: previousEnd)
            }
        }
        let comparison = FetchPredicate.comparison(
            ComparisonPredicate(left, comparisonOperator, right, modifier: modifier, options: options))
        return negated ? .not(comparison) : comparison
    }

    /// Whether `token` can start an expression (so a comparison can start there).
    private func canStartExpression(_ token: PredicateToken) -> Bool {
        switch token.kind {
        case .identifier:
            switch token.keyword {
            case nil, .null, .nil, .self, .true, .false, .yes, .no, .subquery, .cast, .ternary: true
            default: false
            }
        case .escapedIdentifier, .variable, .placeholder, .integer, .real, .string: true
        case .symbol(let symbol):
            symbol == .minus || symbol == .plus || symbol == .openBrace || symbol == .openParenthesis
        case .collectionOperator, .end: false
        }
    }

    private static func comparisonOperator(_ token: PredicateToken) -> ComparisonPredicate.Operator? {
        switch token.kind {
        case .symbol(.equalTo): .equalTo
        case .symbol(.notEqualTo): .notEqualTo
        case .symbol(.lessThan): .lessThan
        case .symbol(.lessThanOrEqualTo): .lessThanOrEqualTo
        case .symbol(.greaterThan): .greaterThan
        case .symbol(.greaterThanOrEqualTo): .greaterThanOrEqualTo
        default:
            switch token.keyword {
            case .between: .between
            case .in: .in
            case .beginsWith: .beginsWith
            case .endsWith: .endsWith
            case .contains: .contains
            case .like: .like
            case .matches: .matches
            default: nil
            }
        }
    }

    /// Parses `[c]`, `[d]`, `[cd]` or `[dc]` after an operator, if present.
    private mutating func parseOptions() throws(FetchPredicateError) -> StringComparisonOptions {
        guard try peek().is(.openBracket) else { return [] }
        try advance()
        let letters = try advance()
        guard case .identifier(let word) = letters.kind else {
            throw unexpected("comparison options such as c, d or cd", letters)
        }
        var options: StringComparisonOptions = []
        for (index, letter) in word.unicodeScalars.enumerated() {
            switch letter {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            default:
                throw source.syntaxError(
                    "unknown comparison option; expected c or d", at: letters.offset + index, found: "'\(letter)'")
            }
        }
        try expect(.closeBracket)
        return options
    }
}
