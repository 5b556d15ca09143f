/// A compiled `LIKE` pattern: `*` matches any run of characters (including none), `?`
/// matches exactly one character, and every other character matches itself, so `.`, `+`,
/// `[` and `\` are literal. The whole string must match.
///
/// Characters are extended grapheme clusters (`?` matches `é` written either way, or one
/// emoji); two characters are the same when their Unicode scalars are, after the
/// comparison options have folded both the pattern and the string as
/// ``AttributeValue/compare(_:options:)`` does.
struct LikePattern {
    private enum Token: Equatable {
        case anyRun
        case anyCharacter
        case literal([Unicode.Scalar])
    }

    private let tokens: [Token]
    private let options: StringComparisonOptions

    /// Compiles `pattern` for strings compared under `options`.
    init(_ pattern: String, options: StringComparisonOptions) {
        self.options = options
        var tokens: [Token] = []
        for character in AttributeValue.normalized(pattern, options) {
            switch character {
            case "*" where tokens.last == .anyRun: continue
            case "*": tokens.append(.anyRun)
            case "?": tokens.append(.anyCharacter)
            default: tokens.append(.literal(Array(character.unicodeScalars)))
            }
        }
        self.tokens = tokens
    }

    /// Whether the whole of `string` matches the pattern.
    ///
    /// - Complexity: O(*n* × *m*) in the worst case, where *n* and *m* are the lengths of
    ///   the string and the pattern.
    func matches(_ string: String) -> Bool {
        let characters = AttributeValue.normalized(string, options).map { Array($0.unicodeScalars) }
        var position = 0
        var token = 0
        var lastRun: (token: Int, position: Int)?
        while position < characters.count {
            if token < tokens.count, accepts(tokens[token], characters[position]) {
                position += 1
                token += 1
            } else if token < tokens.count, tokens[token] == .anyRun {
                lastRun = (token, position)
                token += 1
            } else if let run = lastRun {
                lastRun = (run.token, run.position + 1)
                token = run.token + 1
                position = run.position + 1
            } else {
                return false
            }
        }
        while token < tokens.count, tokens[token] == .anyRun { token += 1 }
        return token == tokens.count
    }

    private func accepts(_ token: Token, _ character: [Unicode.Scalar]) -> Bool {
        switch token {
        case .anyRun: false
        case .anyCharacter: true
        case .literal(let scalars): scalars == character
        }
    }
}
