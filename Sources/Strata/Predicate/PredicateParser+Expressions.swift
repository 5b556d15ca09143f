/// The expression half of the grammar:
/// ```
/// expression := primary ( '.' key )*
/// key        := name | #name | @count | @sum | @avg | @min | @max
/// primary    := number | '-' number | string | nil | NULL | YES | NO | TRUE | FALSE | SELF
///             | name | #name | name '(' [list] ')' | $variable | placeholder | '{' [list] '}'
///             | SUBQUERY '(' expression ',' $variable ',' predicate ')'
///             | CAST '(' expression ',' string ')'
/// list       := expression ( ',' expression )*
/// ```
/// Dotted names become one ``FetchExpression/keyPath(_:)``; a key path after anything else
/// (`$x.name`, `SELF.name`, `SUBQUERY(…).@count`) becomes ``FetchExpression/keyPathOn(_:_:)``.
/// Integers are ``AttributeValue/integer64``, other numbers ``AttributeValue/double``, and
/// `CAST` turns a literal into any other kind (see ``PredicateLiteral``).
extension PredicateParser {
    /// The collection operators a key path may use, without the `@`.
    static let collectionOperators: Set<String> = ["count", "sum", "avg", "min", "max"]

    /// Parses `expression`.
    mutating func parseExpression() throws(FetchPredicateError) -> FetchExpression {
        var expression = try parsePrimaryExpression()
        while try peek().is(.dot) {
            try advance()
            expression = Self.appending(try parseKey(), to: expression)
        }
        return expression
    }

    /// `expression` followed by the key path component `key`.
    private static func appending(_ key: String, to expression: FetchExpression) -> FetchExpression {
        switch expression {
        case .keyPath(let path): .keyPath(path + "." + key)
        case .keyPathOn(let base, let path): .keyPathOn(base, path + "." + key)
        default: .keyPathOn(expression, key)
        }
    }

    /// Parses one key path component after a `.`; keywords are allowed there.
    private mutating func parseKey() throws(FetchPredicateError) -> String {
        let token = try advance()
        switch token.kind {
        case .identifier(let name), .escapedIdentifier(let name):
            return name
        case .collectionOperator(let name):
            guard Self.collectionOperators.contains(name) else {
                throw source.syntaxError(
                    "unknown collection operator; expected @count, @sum, @avg, @min or @max", at: token.offset,
                    found: describe(token))
            }
            return "@" + name
        default:
            throw unexpected("a key after '.'", token)
        }
    }

    private mutating func parsePrimaryExpression() throws(FetchPredicateError) -> FetchExpression {
        let token = try advance()
        switch token.kind {
        case .integer(let digits, let radix):
            return .constant(.integer64(try integer(digits, radix: radix, negative: false, at: token)))
        case .real(let text):
            return .constant(.double(try real(text, negative: false, at: token)))
        case .symbol(.minus):
            return .constant(try parseNegativeNumber(after: token))
        case .string(let value):
            return .constant(.string(value))
        case .variable(let name):
            return .variable(name)
        case .placeholder(let placeholder):
            return try argument(for: placeholder, at: token)
        case .symbol(.openBrace):
            try enterNesting(at: token)
            defer { leaveNesting() }
            return .aggregate(try parseList(closedBy: .closeBrace))
        case .identifier(let word):
            guard let keyword = PredicateKeyword(word) else { return try parseName(word) }
            return try parseKeywordExpression(keyword, token)
        case .escapedIdentifier(let word):
            return try parseName(word)
        default:
            throw unexpected("an expression", token)
        }
    }

    private mutating func parseKeywordExpression(
        _ keyword: PredicateKeyword, _ token: PredicateToken
    ) throws(FetchPredicateError) -> FetchExpression {
        switch keyword {
        case .nil, .null: return .constant(.null)
        case .true, .yes: return .constant(.boolean(true))
        case .false, .no: return .constant(.boolean(false))
        case .self: return .evaluatedObject
        case .subquery: return try parseSubquery(token)
        case .cast: return try parseCast(token)
        default: throw unexpected("an expression", token)
        }
    }

    /// Parses a key (`name`) or a function call (`name(…)`).
    private mutating func parseName(_ name: String) throws(FetchPredicateError) -> FetchExpression {
        let open = try peek()
        guard open.is(.openParenthesis) else {
            if name.contains(":") { throw unexpected("'(' after function name '\(name)'", open) }
            return .keyPath(name)
        }
        try advance()
        try enterNesting(at: open)
        defer { leaveNesting() }
        return .function(name, try parseList(closedBy: .closeParenthesis))
    }

    /// Parses expressions separated by commas up to and including `closing`.
    private mutating func parseList(
        closedBy closing: PredicateToken.Symbol
    ) throws(FetchPredicateError) -> [FetchExpression] {
        if try peek().is(closing) {
            try advance()
            return []
        }
        var items: [FetchExpression] = []
        while true {
            items.append(try parseExpression())
            let separator = try advance()
            if separator.is(closing) { return items }
            guard separator.is(.comma) else { throw unexpected("',' or '\(closing.rawValue)'", separator) }
        }
    }

    private mutating func parseNegativeNumber(after minus: PredicateToken) throws(FetchPredicateError) -> AttributeValue
    {
        let number = try advance()
        switch number.kind {
        case .integer(let digits, let radix):
            return .integer64(try integer(digits, radix: radix, negative: true, at: minus))
        case .real(let text):
            return .double(try real(text, negative: true, at: minus))
        default:
            throw unexpected("a number after '-'", number)
        }
    }

    private func integer(
        _ digits: String, radix: Int, negative: Bool, at token: PredicateToken
    ) throws(FetchPredicateError) -> Int64 {
        guard let value = Int64((negative ? "-" : "") + digits, radix: radix) else {
            throw source.syntaxError(
                "integer out of range; integers must fit in 64 bits", at: token.offset,
                found: source.excerpt(from: token.offset, to: previousEnd))
        }
        return value
    }

    private func real(_ text: String, negative: Bool, at token: PredicateToken) throws(FetchPredicateError) -> Double {
        guard let value = Double(text) else {
            throw source.syntaxError("malformed number", at: token.offset, found: describe(token))
        }
        return negative ? -value : value
    }

    private mutating func parseSubquery(_ keyword: PredicateToken) throws(FetchPredicateError) -> FetchExpression {
        try enterNesting(at: keyword)
        defer { leaveNesting() }
        try expect(.openParenthesis)
        let collection = try parseExpression()
        try expect(.comma)
        let variable = try advance()
        guard case .variable(let name) = variable.kind else {
            throw unexpected("a variable such as $x as the second argument of SUBQUERY", variable)
        }
        try expect(.comma)
        let predicate = try parseOr()
        try expect(.closeParenthesis)
        return .subquery(collection: collection, variable: name, predicate: predicate)
    }

    private mutating func parseCast(_ keyword: PredicateToken) throws(FetchPredicateError) -> FetchExpression {
        try enterNesting(at: keyword)
        defer { leaveNesting() }
        try expect(.openParenthesis)
        let valueToken = try peek()
        let value = try parseExpression()
        let valueEnd = previousEnd
        try expect(.comma)
        let typeToken = try advance()
        guard case .string(let typeName) = typeToken.kind, PredicateLiteral.castTypeNames.contains(typeName) else {
            let names = PredicateLiteral.castTypeNames.map { "\"\($0)\"" }.joined(separator: ", ")
            throw unexpected("a CAST type name, one of \(names)", typeToken)
        }
        try expect(.closeParenthesis)
        guard case .constant(let constant) = value, let converted = PredicateLiteral.cast(constant, to: typeName)
        else {
            throw valueError("CAST cannot convert this value to \(typeName)", valueToken, end: valueEnd)
        }
        return .constant(converted)
    }
}
