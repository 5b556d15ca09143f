extension FetchExpression: CustomStringConvertible {
    /// The expression in Core Data's format syntax, such as `items.@count` or
    /// `SUBQUERY(items, $x, $x.price > 10)`.
    ///
    /// Key paths are written with dots; a first key spelled like a keyword gets a `#`
    /// (`#self.name`), as does such a function name. Constants are written so that parsing
    /// gives back the same kind of value:
    ///
    /// | value | written as |
    /// | --- | --- |
    /// | `.null` | `nil` |
    /// | `.integer64(-3)` | `-3` |
    /// | `.double(2.5)` | `2.5` (always with a `.` or an exponent) |
    /// | `.boolean(true)` | `YES` (`NO` for `false`) |
    /// | `.string("a\"b")` | `"a\"b"` (with `\\`, `\"`, `\n`, `\t`, `\r` and `\uXXXX` escapes) |
    /// | `.integer16(7)` | `CAST(7, "Int16")` |
    /// | `.integer32(7)` | `CAST(7, "Int32")` |
    /// | `.decimal(1.25)` | `CAST("1.25", "Decimal")` |
    /// | `.float(1.5)` | `CAST("1.5", "Float")` |
    /// | `.double(.infinity)` | `CAST("inf", "Double")` (also `"-inf"` and `"nan"`) |
    /// | `.date(d)` | `CAST(721692800.5, "NSDate")`, seconds since 2001-01-01 00:00:00 UTC, as Core Data writes dates |
    /// | `.binary(d)` | `CAST("00ff10", "Data")`, the bytes in hexadecimal |
    /// | `.uuid(u)` | `CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "UUID")` |
    /// | `.uri(u)` | `CAST("https://example.com/a", "URL")` |
    /// | `.objectID(i)` | `CAST("x-strata://<store>/<Entity>/p12", "ObjectID")`, each part percent-encoded (`t<UUID>` for a temporary reference, `s<key>` for a string key) |
    ///
    /// - Complexity: O(*n*), where *n* is the size of the expression.
    public var description: String {
        switch self {
        case .evaluatedObject:
            return "SELF"
        case .keyPath(let path):
            return Self.escapingFirstKey(path)
        case .keyPathOn(let base, let path):
            return base.infixOperator == nil ? "\(base).\(path)" : "(\(base)).\(path)"
        case .constant(let value):
            return PredicateLiteral.format(value)
        case .variable(let name):
            return "$" + name
        case .aggregate(let elements):
            return "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .function(PredicateParser.indexFunction, let arguments) where arguments.count == 2:
            let collection = arguments[0].infixOperator == nil ? "\(arguments[0])" : "(\(arguments[0]))"
            if case .constant(.string(let symbol)) = arguments[1], PredicateParser.symbolicIndexes.contains(symbol) {
                return "\(collection)[\(symbol)]"
            }
            return "\(collection)[\(arguments[1])]"
        case .function(_, let arguments) where infixOperator != nil:
            guard let infix = infixOperator else { return "" }
            return operand(arguments[0], of: infix, onTheLeft: true) + " \(infix.symbol) "
                + operand(arguments[1], of: infix, onTheLeft: false)
        case .function(let name, let arguments):
            return Self.escapingFirstKey(name) + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(collection), $\(variable), \(predicate))"
        case .conditional(let condition, let then, let otherwise):
            return "TERNARY(\(condition), \(then), \(otherwise))"
        }
    }

    /// An infix operator and how tightly it binds.
    struct InfixOperator {
        let symbol: String
        let precedence: Int
        let isRightAssociative: Bool
    }

    /// The operators the parser turns into functions, by function name.
    private static let infixOperators: [String: InfixOperator] = [
        PredicateParser.additionFunction: InfixOperator(symbol: "+", precedence: 1, isRightAssociative: false),
        PredicateParser.subtractionFunction: InfixOperator(symbol: "-", precedence: 1, isRightAssociative: false),
        PredicateParser.multiplicationFunction: InfixOperator(symbol: "*", precedence: 2, isRightAssociative: false),
        PredicateParser.divisionFunction: InfixOperator(symbol: "/", precedence: 2, isRightAssociative: false),
        PredicateParser.powerFunction: InfixOperator(symbol: "**", precedence: 3, isRightAssociative: true),
    ]

    /// The infix operator the expression is written with: a two-argument arithmetic function.
    var infixOperator: InfixOperator? {
        guard case .function(let name, let arguments) = self, arguments.count == 2 else { return nil }
        return Self.infixOperators[name]
    }

    /// `expression` as an operand of `infix`, in parentheses when it binds less tightly (or as
    /// tightly, on the side the operator does not associate to), or is a negative number before
    /// `**`.
    private func operand(_ expression: FetchExpression, of infix: InfixOperator, onTheLeft: Bool) -> String {
        let text = expression.description
        if let inner = expression.infixOperator {
            let sameSideAssociates = onTheLeft != infix.isRightAssociative
            if inner.precedence < infix.precedence || (inner.precedence == infix.precedence && !sameSideAssociates) {
                return "(\(text))"
            }
            return text
        }
        if infix.precedence == 3, onTheLeft, text.hasPrefix("-") { return "(\(text))" }
        return text
    }

    /// `path` with a `#` before its first key when that key is a keyword.
    private static func escapingFirstKey(_ path: String) -> String {
        let first = path.prefix { $0 != "." }
        return PredicateKeyword.isReserved(String(first)) ? "#" + path : path
    }
}
