/// Splits a predicate format string into tokens, one at a time.
///
/// Reads Unicode scalars (see ``PredicateSource``). Whitespace separates tokens and is
/// otherwise ignored. Every call consumes at least one scalar or returns the end token, so
/// a caller that stops at ``PredicateToken/Kind/end`` always terminates.
struct PredicateLexer {
    /// The format string being read.
    let source: PredicateSource
    /// The scalar offset of the next unread scalar.
    private var position = 0

    /// Creates a lexer at the start of `source`.
    init(_ source: PredicateSource) {
        self.source = source
    }

    private var scalars: [Unicode.Scalar] { source.scalars }

    private func scalar(at offset: Int) -> Unicode.Scalar? {
        offset < scalars.count ? scalars[offset] : nil
    }

    /// Reads the next token.
    ///
    /// - Throws: `FetchPredicateError` with code `.syntax` for an unterminated string, a malformed
    ///   number or escape, an unknown placeholder, or a character the syntax does not use.
    mutating func next() throws(FetchPredicateError) -> PredicateToken {
        while let c = scalar(at: position), c.properties.isWhitespace { position += 1 }
        let start = position
        guard let c = scalar(at: position) else { return PredicateToken(kind: .end, offset: start, end: start) }
        let kind: PredicateToken.Kind
        switch c {
        case "'", "\"": kind = .string(try readString(quote: c))
        case "0"..."9": kind = try readNumber()
        case "%": kind = .placeholder(try readPlaceholder())
        case "#": kind = .escapedIdentifier(try readPrefixedName(what: "a name after '#'"))
        case "$": kind = .variable(try readPrefixedName(what: "a variable name after '$'"))
        case "@": kind = .collectionOperator(try readPrefixedName(what: "a collection operator name after '@'"))
        default:
            if Self.isIdentifierStart(c) {
                kind = .identifier(readFunctionSelector(startingWith: readName()))
            } else {
                kind = .symbol(try readSymbol(c))
            }
        }
        return PredicateToken(kind: kind, offset: start, end: position)
    }

    /// Whether `c` can start a name: a letter or `_`.
    static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic
    }

    /// Whether `c` can continue a name: a letter, a digit, `_` or a combining mark.
    static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        switch c.properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark: true
        default: isIdentifierStart(c)
        }
    }

    /// Whether `word` can be written as a bare name (reserved words need a `#` as well).
    static func isIdentifier(_ word: String) -> Bool {
        guard let first = word.unicodeScalars.first, isIdentifierStart(first) else { return false }
        return word.unicodeScalars.allSatisfy(isIdentifierPart)
    }

    private mutating func readName() -> String {
        var name = String.UnicodeScalarView()
        while let c = scalar(at: position), Self.isIdentifierPart(c) {
            name.append(c)
            position += 1
        }
        return String(name)
    }

    /// Extends `name` with the colon-separated parts of a selector-style function name such as
    /// `add:to:` or `count:`; returns `name` unchanged when no `:` follows it.
    private mutating func readFunctionSelector(startingWith name: String) -> String {
        var selector = name
        while scalar(at: position) == ":" {
            position += 1
            selector += ":" + readName()
        }
        return selector
    }

    /// Reads the name after a one-scalar prefix such as `$` or `#`.
    private mutating func readPrefixedName(what: String) throws(FetchPredicateError) -> String {
        position += 1
        guard let c = scalar(at: position), Self.isIdentifierStart(c) else {
            throw source.syntaxError("expected \(what)", at: position, found: found(at: position))
        }
        return readName()
    }

    /// A description of what is at `offset`, for error messages.
    private func found(at offset: Int) -> String {
        guard let c = scalar(at: offset) else { return "the end of the format" }
        return c.properties.isWhitespace ? "a space" : "'\(c)'"
    }

    private mutating func readSymbol(_ c: Unicode.Scalar) throws(FetchPredicateError) -> PredicateToken.Symbol {
        let start = position
        let following = scalar(at: position + 1)
        position += 1
        func pair(_ second: Unicode.Scalar, _ symbol: PredicateToken.Symbol) -> PredicateToken.Symbol? {
            guard following == second else { return nil }
            position += 1
            return symbol
        }
        let symbol: PredicateToken.Symbol?
        switch c {
        case "=":
            symbol =
                pair("=", .equalTo) ?? pair("<", .lessThanOrEqualTo) ?? pair(">", .greaterThanOrEqualTo) ?? .equalTo
        case "!": symbol = pair("=", .notEqualTo) ?? .not
        case "<": symbol = pair("=", .lessThanOrEqualTo) ?? pair(">", .notEqualTo) ?? .lessThan
        case ">": symbol = pair("=", .greaterThanOrEqualTo) ?? .greaterThan
        case "&": symbol = pair("&", .and)
        case "|": symbol = pair("|", .or)
        case "*": symbol = pair("*", .power) ?? .star
        default: symbol = PredicateToken.Symbol(rawValue: String(c))
        }
        guard let symbol else {
            let expectation = c == "&" ? "expected '&&'" : c == "|" ? "expected '||'" : "unexpected character"
            throw source.syntaxError(expectation, at: start, found: found(at: start))
        }
        return symbol
    }

    private mutating func readPlaceholder() throws(FetchPredicateError) -> PredicateToken.Placeholder {
        let start = position
        position += 1
        var spelling = "%"
        while let c = scalar(at: position), c.properties.isAlphabetic || c == "@", spelling.count < 4 {
            spelling.unicodeScalars.append(c)
            position += 1
            if c != "l" { break }
        }
        switch spelling {
        case "%@": return .object
        case "%K": return .keyPath
        case "%d", "%i", "%ld", "%lld", "%u": return .integer(spelling)
        case "%f", "%lf": return .floating(spelling)
        default:
            throw source.syntaxError(
                "unknown placeholder; expected %@, %K, %d, %i, %ld, %lld, %u, %f or %lf", at: start,
                found: source.excerpt(from: start, to: max(position, start + 1)))
        }
    }

    private mutating func readNumber() throws(FetchPredicateError) -> PredicateToken.Kind {
        let start = position
        if scalars[position] == "0", let marker = scalar(at: position + 1), let radix = Self.radix(marker) {
            position += 2
            let digits = readDigits(radix: radix)
            guard !digits.isEmpty else {
                throw source.syntaxError("expected digits after '0\(marker)'", at: position, found: found(at: position))
            }
            try checkNumberEnd(from: start)
            return .integer(digits, radix: radix)
        }
        var text = readDigits(radix: 10)
        var isReal = false
        if scalar(at: position) == ".", let digit = scalar(at: position + 1), Self.isDecimalDigit(digit) {
            position += 1
            text += "." + readDigits(radix: 10)
            isReal = true
        }
        if let e = scalar(at: position), e == "e" || e == "E" {
            var lookahead = position + 1
            var sign = ""
            if let s = scalar(at: lookahead), s == "+" || s == "-" {
                sign = String(s)
                lookahead += 1
            }
            if let digit = scalar(at: lookahead), Self.isDecimalDigit(digit) {
                position = lookahead
                text += "e" + sign + readDigits(radix: 10)
                isReal = true
            }
        }
        try checkNumberEnd(from: start)
        return isReal ? .real(text) : .integer(text, radix: 10)
    }

    /// Rejects a number that runs straight into a name, such as `12abc` or `0x1G`.
    private func checkNumberEnd(from start: Int) throws(FetchPredicateError) {
        guard let c = scalar(at: position), Self.isIdentifierPart(c) else { return }
        var end = position
        while let c = scalar(at: end), Self.isIdentifierPart(c) { end += 1 }
        throw source.syntaxError(
            "malformed number", at: start, found: source.excerpt(from: start, to: end))
    }

    private static func radix(_ marker: Unicode.Scalar) -> Int? {
        switch marker {
        case "x", "X": 16
        case "o", "O": 8
        case "b", "B": 2
        default: nil
        }
    }

    private static func isDecimalDigit(_ c: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(c)
    }

    private static func digitValue(_ c: Unicode.Scalar) -> Int? {
        switch c {
        case "0"..."9": Int(c.value - 48)
        case "a"..."f": Int(c.value - 87)
        case "A"..."F": Int(c.value - 55)
        default: nil
        }
    }

    private mutating func readDigits(radix: Int) -> String {
        var digits = String.UnicodeScalarView()
        while let c = scalar(at: position), let value = Self.digitValue(c), value < radix {
            digits.append(c)
            position += 1
        }
        return String(digits)
    }

    /// Reads a quoted string; escapes: `\\`, `\'`, `\"`, `\n`, `\t`, `\r`, `\0` and `\uXXXX`
    /// (a UTF-16 unit; surrogate pairs combine). Any other backslash is kept as written, so
    /// regular expressions for `MATCHES` need no doubling.
    private mutating func readString(quote: Unicode.Scalar) throws(FetchPredicateError) -> String {
        let start = position
        position += 1
        var value = String.UnicodeScalarView()
        while true {
            guard let c = scalar(at: position) else {
                throw source.syntaxError(
                    "unterminated string; expected a closing \(quote) for the string that starts", at: start,
                    found: "the end of the format")
            }
            position += 1
            if c == quote { return String(value) }
            guard c == "\\", let escaped = scalar(at: position) else {
                value.append(c)
                continue
            }
            switch escaped {
            case "u":
                value.append(try readUnicodeEscape(at: position - 1))
            case "\\", "'", "\"", "n", "t", "r", "0":
                value.append(Self.unescaped(escaped))
                position += 1
            default:
                value.append(c)
            }
        }
    }

    /// The scalar a one-letter escape such as `\n` stands for.
    private static func unescaped(_ letter: Unicode.Scalar) -> Unicode.Scalar {
        switch letter {
        case "n": "\n"
        case "t": "\t"
        case "r": "\r"
        case "0": "\0"
        default: letter
        }
    }

    /// Reads `\uXXXX` (and a following low surrogate) starting at the backslash at `start`.
    private mutating func readUnicodeEscape(at start: Int) throws(FetchPredicateError) -> Unicode.Scalar {
        let high = try readUTF16Unit(at: start)
        if let scalar = Unicode.Scalar(high) { return scalar }
        guard UTF16.isLeadSurrogate(high) else {
            throw source.syntaxError("unpaired low surrogate \\u\(hex(high)) in a string", at: start)
        }
        guard scalar(at: position) == "\\", scalar(at: position + 1) == "u" else {
            throw source.syntaxError("expected a low surrogate \\uDC00…\\uDFFF after \\u\(hex(high))", at: position)
        }
        let low = try readUTF16Unit(at: position)
        guard UTF16.isTrailSurrogate(low) else {
            throw source.syntaxError("expected a low surrogate \\uDC00…\\uDFFF after \\u\(hex(high))", at: position - 6)
        }
        let value = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        guard let scalar = Unicode.Scalar(value) else {
            throw source.syntaxError("invalid surrogate pair", at: start)
        }
        return scalar
    }

    private func hex(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// Reads the four hex digits of `\uXXXX` whose backslash is at `start`.
    private mutating func readUTF16Unit(at start: Int) throws(FetchPredicateError) -> UInt16 {
        var unit: UInt16 = 0
        for index in start + 2..<start + 6 {
            guard let c = scalar(at: index), let digit = Self.digitValue(c) else {
                throw source.syntaxError(
                    "expected four hex digits after \\u", at: index, found: found(at: index))
            }
            unit = unit << 4 | UInt16(digit)
        }
        position = start + 6
        return unit
    }
}
