extension FetchPredicate: CustomStringConvertible {
    /// The predicate in Core Data's format syntax, such as `name == "x" AND age > 3`.
    ///
    /// Parsing the description with ``init(format:_:)`` gives back an equal predicate, with the
    /// same kinds of constants, for every predicate the parser produces. That holds for trees
    /// built by hand too, as long as keys, variables and function names are names the syntax can
    /// spell and no ``FetchExpression/keyPathOn(_:_:)`` is applied to a key path (the parser
    /// reads `a.b` as one ``FetchExpression/keyPath(_:)``). Compound operands that are
    /// themselves `AND` or `OR` are parenthesised, so precedence survives; `NOT` is written
    /// before its operand (`NOT ANY …` for a parsed `NONE …`). Constants are written as
    /// described in ``FetchExpression/description``. An empty ``and(_:)`` is written
    /// `TRUEPREDICATE`, an empty ``or(_:)`` `FALSEPREDICATE`, and a one-element ``and(_:)`` or
    /// ``or(_:)`` as its element.
    ///
    /// - Complexity: O(*n*), where *n* is the size of the tree.
    public var description: String {
        switch self {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison):
            return comparison.description
        case .and(let operands):
            return operands.isEmpty ? "TRUEPREDICATE" : operands.map(\.operandDescription).joined(separator: " AND ")
        case .or(let operands):
            return operands.isEmpty ? "FALSEPREDICATE" : operands.map(\.operandDescription).joined(separator: " OR ")
        case .not(let operand):
            return "NOT " + operand.operandDescription
        }
    }

    /// The description, in parentheses when the predicate is an `AND` or `OR`.
    private var operandDescription: String {
        switch self {
        case .and, .or: "(\(description))"
        case .constant, .comparison, .not: description
        }
    }
}
