/// Filling placeholders with format arguments, in the order the placeholders appear.
///
/// `%@` takes any argument; `%K` a string naming a key path (dotted names, with `@count`,
/// `@sum`, `@avg`, `@min` or `@max` after the first); `%d`, `%i`, `%ld`, `%lld` and `%u` an
/// integer; `%f` and `%lf` any number but a Boolean. The value keeps its own kind: `%f` with
/// an `Int` gives ``AttributeValue/integer64``.
extension PredicateParser {
    /// The expression for the placeholder `token`, taken from the next argument.
    ///
    /// - Throws: `FetchPredicateError` with code `.argument` when no argument is left or it does not
    ///   fit the placeholder.
    mutating func argument(
        for placeholder: PredicateToken.Placeholder, at token: PredicateToken
    ) throws(FetchPredicateError) -> FetchExpression {
        placeholderCount += 1
        let position = placeholderCount
        let name = "placeholder \(position) (\(placeholder.spelling) at offset \(source.characterOffset(token.offset)))"
        guard position <= arguments.count else {
            throw source.argumentError(
                "\(name) has no argument; only \(Self.counting(arguments.count, "argument")) given", at: token.offset)
        }
        let expression = arguments[position - 1].predicateExpression
        func mismatch(_ expectation: String) -> FetchPredicateError {
            source.argumentError(
                "\(name) needs \(expectation), but argument \(position) is \(Self.describe(expression))",
                at: token.offset)
        }
        switch placeholder {
        case .object:
            return expression
        case .keyPath:
            guard case .constant(.string(let path)) = expression, Self.isKeyPath(path) else {
                throw mismatch("a string naming a key path such as \"author.name\"")
            }
            return .keyPath(path)
        case .integer:
            guard case .constant(let value) = expression,
                [.integer16, .integer32, .integer64].contains(value.attributeType)
            else { throw mismatch("an integer") }
            return expression
        case .floating:
            guard case .constant(let value) = expression, value.attributeType?.isNumeric == true else {
                throw mismatch("a number")
            }
            return expression
        }
    }

    /// Whether `path` is a key path `%K` may stand for.
    private static func isKeyPath(_ path: String) -> Bool {
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        guard let first = components.first, PredicateLexer.isIdentifier(String(first)) else { return false }
        return components.dropFirst().allSatisfy { component in
            if component.hasPrefix("@") { return collectionOperators.contains(String(component.dropFirst())) }
            return PredicateLexer.isIdentifier(String(component))
        }
    }

    /// How an argument error names what an argument turned out to be.
    private static func describe(_ expression: FetchExpression) -> String {
        switch expression {
        case .constant(.string(let value)): "the string \(PredicateLiteral.quoted(value))"
        case .constant(.null): "nil"
        case .constant(.boolean(let value)): "the Boolean \(value ? "YES" : "NO")"
        case .constant(let value): "a value of type \(value.attributeType?.modelFileName ?? "Undefined")"
        case .aggregate: "a collection"
        default: "the expression \(expression)"
        }
    }
}
