/// One token of a predicate format string, with where it starts and ends.
struct PredicateToken: Equatable {
    /// A format placeholder and the arguments it accepts.
    enum Placeholder: Equatable {
        /// `%@`: any argument.
        case object
        /// `%K`: a string naming a key path.
        case keyPath
        /// `%d`, `%i`, `%ld`, `%lld`, `%u`: an integer; the payload is the spelling.
        case integer(String)
        /// `%f`, `%lf`: a floating-point or integer number; the payload is the spelling.
        case floating(String)

        /// The placeholder as written in a format string.
        var spelling: String {
            switch self {
            case .object: "%@"
            case .keyPath: "%K"
            case .integer(let spelling), .floating(let spelling): spelling
            }
        }
    }

    /// Punctuation and operators.
    enum Symbol: String, Equatable {
        case openParenthesis = "("
        case closeParenthesis = ")"
        case openBrace = "{"
        case closeBrace = "}"
        case openBracket = "["
        case closeBracket = "]"
        case comma = ","
        case dot = "."
        case minus = "-"
        case plus = "+"
        case star = "*"
        case slash = "/"
        case power = "**"
        case not = "!"
        case and = "&&"
        case or = "||"
        case equalTo = "=="
        case notEqualTo = "!="
        case lessThan = "<"
        case lessThanOrEqualTo = "<="
        case greaterThan = ">"
        case greaterThanOrEqualTo = ">="
    }

    /// What a token is.
    enum Kind: Equatable {
        /// A bare word: a key, a keyword or a function name.
        case identifier(String)
        /// A `#`-escaped word, never a keyword.
        case escapedIdentifier(String)
        /// `@count` and the other collection operators, without the `@`.
        case collectionOperator(String)
        /// `$name`, without the `$`.
        case variable(String)
        /// `%@`, `%K`, `%d` and the other placeholders.
        case placeholder(Placeholder)
        /// An integer literal's digits in `radix`, without prefix or sign.
        case integer(String, radix: Int)
        /// A literal with a fraction or an exponent, without sign.
        case real(String)
        /// A quoted string, with escapes resolved.
        case string(String)
        /// Punctuation or an operator.
        case symbol(Symbol)
        /// The end of the format string.
        case end
    }

    /// What the token is.
    var kind: Kind
    /// The scalar offset where the token starts.
    var offset: Int
    /// The scalar offset just past the token.
    var end: Int

    /// Whether the token is `symbol`.
    func `is`(_ symbol: Symbol) -> Bool { kind == .symbol(symbol) }

    /// Whether the token is a number literal.
    var isNumber: Bool {
        switch kind {
        case .integer, .real: true
        default: false
        }
    }

    /// The keyword the token spells, if it is a bare word that is one.
    var keyword: PredicateKeyword? {
        guard case .identifier(let word) = kind else { return nil }
        return PredicateKeyword(word)
    }
}
