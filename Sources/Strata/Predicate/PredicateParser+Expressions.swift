/// The expression half of the grammar:
/// ```
/// expression := term ( ( '+' | '-' ) term )*
/// term       := unary ( ( '*' | '/' ) unary )*
/// unary      := ( '-' | '+' ) unary | power
/// power      := postfix [ '**' unary ]
/// postfix    := primary ( '.' key | '[' index ']' )*
/// index      := FIRST | LAST | SIZE | expression
/// key        := name | #name | @count | @sum | @avg | @min | @max | @distinctUnionOfObjects
///             | @distinctUnionOfArrays | @distinctUnionOfSets | @unionOfObjects | @unionOfArrays
///             | @unionOfSets
/// primary    := number | '-' number | string | nil | NULL | YES | NO | TRUE | FALSE | SELF
///             | name | #name | name '(' [list] ')' | $variable | placeholder | '{' [list] '}'
///             | '(' expression ')'
///             | SUBQUERY '(' expression ',' $variable ',' predicate ')'
///             | CAST '(' expression ',' string ')'
///             | TERNARY '(' predicate ',' expression ',' expression ')'
/// list       := expression ( ',' expression )*
/// ```
/// Dotted names become one ``FetchExpression/keyPath(_:)``; a key path after anything else
/// (`$x.name`, `SELF.name`, `SUBQUERY(…).@count`) becomes ``FetchExpression/keyPathOn(_:_:)``.
/// Integers are ``AttributeValue/integer64``, other numbers ``AttributeValue/double``, and
/// `CAST` turns a literal into any other kind (see ``PredicateLiteral``). Arithmetic becomes
/// Core Data's functions, as `NSExpression` has it: `a + b` is `add:to:(a, b)`, `a - b`
/// `from:subtract:(a, b)`, `a * b` `multiply:by:(a, b)`, `a / b` `divide:by:(a, b)`, `a ** b`
/// `raise:toPower:(a, b)` (right-associative), and `-a` `from:subtract:(0, a)`; a minus
/// directly before a number is part of the number. `x[i]` is `objectFrom:withIndex:(x, i)`, with
/// `FIRST`, `LAST` and `SIZE` as the strings `"FIRST"`, `"LAST"`, `"SIZE"`.
extension PredicateParser {
    /// The collection operators a key path may use, without the `@`.
    static let collectionOperators: Set<String> = [
        "count", "sum", "avg", "min", "max", "distinctUnionOfObjects", "distinctUnionOfArrays", "distinctUnionOfSets",
        "unionOfObjects", "unionOfArrays", "unionOfSets",
    ]

    /// Parses `expression`: operands and operators read in one loop that applies them by
    /// precedence as it goes (operator precedence parsing), so that a long sum costs no stack.
    mutating func parseExpression() throws(FetchPredicateError) -> FetchExpression {
        var operands: [FetchExpression] = []
        var operators: [ArithmeticOperator] = []
        while true {
            while let sign = try prefixSign() {
                try advance()
                if sign == .negation { operators.append(.negation) }
            }
            var operand = try parsePrimaryExpression()
            while true {
                let next = try peek()
                if next.is(.dot) {
                    try advance()
                    operand = Self.appending(try parseKey(), to: operand)
                } else if next.is(.openBracket) {
                    try advance()
                    operand = .function(Self.indexFunction, [operand, try parseIndex()])
                } else {
                    break
                }
            }
            operands.append(operand)
            guard let next = ArithmeticOperator(try peek()) else { break }
            try advance()
            while let top = operators.last, top.isApplied(before: next) {
                Self.apply(operators.removeLast(), to: &operands)
            }
            operators.append(next)
        }
        while let top = operators.popLast() { Self.apply(top, to: &operands) }
        return operands[0]
    }

    /// The function an index (`x[2]`, `x[FIRST]`, `x[LAST]`, `x[SIZE]`) stands for.
    static let indexFunction = "objectFrom:withIndex:"
    /// The symbolic indexes, kept as string constants.
    static let symbolicIndexes: Set<String> = ["FIRST", "LAST", "SIZE"]

    /// Parses an index up to and including its `]`: `FIRST`, `LAST` or `SIZE` (as string
    /// constants), or an expression.
    private mutating func parseIndex() throws(FetchPredicateError) -> FetchExpression {
        let token = try peek()
        let index: FetchExpression
        if case .identifier(let word) = token.kind, Self.symbolicIndexes.contains(word.uppercased()) {
            try advance()
            index = .constant(.string(word.uppercased()))
        } else {
            index = try parseExpression()
        }
        try expect(.closeBracket)
        return index
    }

    /// The function names of the infix operators.
    static let additionFunction = "add:to:"
    static let subtractionFunction = "from:subtract:"
    static let multiplicationFunction = "multiply:by:"
    static let divisionFunction = "divide:by:"
    static let powerFunction = "raise:toPower:"

    /// An arithmetic operator of the expression grammar.
    enum ArithmeticOperator: Equatable {
        case addition, subtraction, multiplication, division, power
        /// A `-` before an operand that is not a number literal.
        case negation

        /// The binary operator `token` spells, if any.
        init?(_ token: PredicateToken) {
            switch token.kind {
            case .symbol(.plus): self = .addition
            case .symbol(.minus): self = .subtraction
            case .symbol(.star): self = .multiplication
            case .symbol(.slash): self = .division
            case .symbol(.power): self = .power
            default: return nil
            }
        }

        /// How tightly the operator binds: `+ -` 1, `* /` 2, a sign 3, `**` 4.
        var precedence: Int {
            switch self {
            case .addition, .subtraction: 1
            case .multiplication, .division: 2
            case .negation: 3
            case .power: 4
            }
        }

        /// Whether this operator, waiting on the stack, applies before `next` is pushed: when
        /// it binds more tightly, or as tightly and `next` associates to the left (`**` and
        /// signs associate to the right).
        func isApplied(before next: ArithmeticOperator) -> Bool {
            precedence > next.precedence || (precedence == next.precedence && next != .power && next != .negation)
        }

        /// The function the operator stands for.
        var function: String {
            switch self {
            case .addition: PredicateParser.additionFunction
            case .subtraction, .negation: PredicateParser.subtractionFunction
            case .multiplication: PredicateParser.multiplicationFunction
            case .division: PredicateParser.divisionFunction
            case .power: PredicateParser.powerFunction
            }
        }
    }

    /// The sign before the next operand, unless it is a minus that starts a number literal.
    private mutating func prefixSign() throws(FetchPredicateError) -> ArithmeticOperator? {
        let token = try peek()
        if token.is(.plus) { return .addition }
        guard token.is(.minus) else { return nil }
        let saved = self
        try advance()
        let startsNumber = try peek().isNumber
        self = saved
        return startsNumber ? nil : .negation
    }

    /// Replaces the last operands with `operation` applied to them.
    private static func apply(_ operation: ArithmeticOperator, to operands: inout [FetchExpression]) {
        let right = operands.removeLast()
        if operation == .negation {
            operands.append(.function(operation.function, [.constant(.integer64(0)), right]))
        } else {
            let left = operands.removeLast()
            operands.append(.function(operation.function, [left, right]))
        }
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
                    "unknown collection operator; expected @count, @sum, @avg, @min, @max or a union operator such "
                        + "as @distinctUnionOfObjects", at: token.offset,
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
        case .symbol(.openParenthesis):
            return try parseOnce(token, \.expressions) { (parser) throws(FetchPredicateError) in
                try parser.enterNesting(at: token)
                defer { parser.leaveNesting() }
                let inner = try parser.parseExpression()
                try parser.expect(.closeParenthesis)
                return inner
            }.get()
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
        case .ternary: return try parseTernary(token)
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

    private mutating func parseTernary(_ keyword: PredicateToken) throws(FetchPredicateError) -> FetchExpression {
        try enterNesting(at: keyword)
        defer { leaveNesting() }
        try expect(.openParenthesis)
        let condition = try parseOr()
        try expect(.comma)
        let then = try parseExpression()
        try expect(.comma)
        let otherwise = try parseExpression()
        try expect(.closeParenthesis)
        return .conditional(condition, then: then, else: otherwise)
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
