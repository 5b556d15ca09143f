/// A condition on objects, as an inspectable tree: Core Data's `NSPredicate`.
///
/// Build one from a format string, `try FetchPredicate(format: "age > %d AND name BEGINSWITH[c] %@", 30, "a")`,
/// or from cases. Stores translate the tree (SQL for SQLite); what a store cannot translate
/// the core evaluates in memory with the same results.
public indirect enum FetchPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    case constant(Bool)
    /// A comparison of two expressions.
    case comparison(ComparisonPredicate)
    /// All of the sub-predicates hold (`AND`, `&&`).
    case and([FetchPredicate])
    /// At least one of the sub-predicates holds (`OR`, `||`).
    case or([FetchPredicate])
    /// The sub-predicate does not hold (`NOT`, `!`).
    case not(FetchPredicate)
}

/// A comparison: `left operator right`, with an optional quantifier and string options.
public struct ComparisonPredicate: Sendable, Hashable {
    /// How the left side is quantified when it is a collection.
    public enum Modifier: Sendable, Hashable {
        /// Compare the left value itself.
        case direct
        /// `ANY`/`SOME`: true when any element of the left collection matches.
        case any
        /// `ALL`: true when every element of the left collection matches.
        case all
    }

    /// The comparison operators of Core Data's predicate syntax.
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        /// `==` or `=`: equal.
        case equalTo = "=="
        /// `!=` or `<>`: not equal.
        case notEqualTo = "!="
        /// `<`.
        case lessThan = "<"
        /// `<=` or `=<`.
        case lessThanOrEqualTo = "<="
        /// `>`.
        case greaterThan = ">"
        /// `>=` or `=>`.
        case greaterThanOrEqualTo = ">="
        /// `BETWEEN {low, high}`, inclusive.
        case between = "BETWEEN"
        /// `IN`: membership in a collection, or a substring of a string.
        case `in` = "IN"
        /// `BEGINSWITH`: a string prefix.
        case beginsWith = "BEGINSWITH"
        /// `ENDSWITH`: a string suffix.
        case endsWith = "ENDSWITH"
        /// `CONTAINS`: a substring, or membership for a collection on the left.
        case contains = "CONTAINS"
        /// `LIKE`: a whole-string match with `*` (any run) and `?` (one character).
        case like = "LIKE"
        /// `MATCHES`: a whole-string ICU regular expression match.
        case matches = "MATCHES"
    }

    /// The left expression.
    public var left: FetchExpression
    /// The operator.
    public var `operator`: Operator
    /// The right expression.
    public var right: FetchExpression
    /// The quantifier on the left side.
    public var modifier: Modifier
    /// String options (`[c]`, `[d]`).
    public var options: StringComparisonOptions

    /// Creates a comparison.
    public init(
        _ left: FetchExpression, _ operator: Operator, _ right: FetchExpression, modifier: Modifier = .direct,
        options: StringComparisonOptions = []
    ) {
        self.left = left
        self.operator = `operator`
        self.right = right
        self.modifier = modifier
        self.options = options
    }
}

/// A value inside a predicate: a key path, a constant, a variable, and so on.
public indirect enum FetchExpression: Sendable, Hashable {
    /// `SELF`, the object being evaluated.
    case evaluatedObject
    /// A dotted key path from the evaluated object, such as `author.name` or `items.@count`.
    /// Components starting with `@` are collection operators (`@count`, `@sum`, `@avg`,
    /// `@min`, `@max`).
    case keyPath(String)
    /// A key path applied to another expression, such as `$x.name` or `SUBQUERY(…).@count`.
    case keyPathOn(FetchExpression, String)
    /// A constant value.
    case constant(AttributeValue)
    /// A `$VARIABLE`, replaced by a value before or during evaluation.
    case variable(String)
    /// A collection literal `{a, b, c}`.
    case aggregate([FetchExpression])
    /// A function call such as `now()` or `lowercase(name)`.
    case function(String, [FetchExpression])
    /// `SUBQUERY(collection, $variable, predicate)`: the elements of `collection` for which
    /// `predicate` holds, with `$variable` standing for each element.
    case subquery(collection: FetchExpression, variable: String, predicate: FetchPredicate)
    /// `TERNARY(predicate, a, b)`: `a` where `predicate` holds, `b` where it does not.
    case conditional(FetchPredicate, then: FetchExpression, else: FetchExpression)
}
