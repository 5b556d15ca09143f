/// A computed value of a dictionary fetch (Core Data's `NSExpressionDescription`): a name and
/// an expression. Applied to a key path, `count:`, `sum:`, `average:`, `min:`, `max:`,
/// `median:`, `mode:` and `stddev:` aggregate over the objects of each group
/// (``FetchRequest/propertiesToGroupBy``), or over every matching object without grouping,
/// leaving out nulls as SQL does; any other expression is evaluated on each object (on a
/// group's first object when grouping).
///
/// ```swift
/// var request = FetchRequest<ManagedObject>(entityName: "Book")
/// request.propertiesToGroupBy = ["author"]
/// request.propertiesToFetch = ["author"]
/// request.expressionsToFetch = [ExpressionDescription(name: "pages", expression: try FetchExpression(format: "sum:(pages)"))]
/// let rows = try context.fetchDictionaries(request)   // [["author": …, "pages": 812], …]
/// ```
public struct ExpressionDescription: Sendable, Hashable {
    /// The key the value has in each row.
    public var name: String
    /// The expression.
    public var expression: FetchExpression

    /// Creates a description named `name`.
    public init(name: String, expression: FetchExpression) {
        self.name = name
        self.expression = expression
    }

    /// The functions that aggregate over a group, by their name without the colon: an
    /// expression calling one of them (`sum:(amount)`) makes a dictionary fetch grouped.
    public static let aggregateFunctions: Set<String> = [
        "count", "sum", "average", "min", "max", "median", "mode", "stddev",
    ]

    /// The aggregate function and its per-object argument, when the expression aggregates.
    var aggregate: (function: String, argument: FetchExpression)? {
        guard case .function(let name, let arguments) = expression, arguments.count == 1,
            Self.aggregateFunctions.contains(PredicateEvaluator.functionKey(name))
        else { return nil }
        return (name, arguments[0])
    }
}
