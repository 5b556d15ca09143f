import Foundation

/// A value that can fill a placeholder of a predicate format string.
///
/// ```swift
/// let predicate = try FetchPredicate(format: "%K IN %@ AND age > %d", "status", ["new", "open"], 30)
/// ```
///
/// Conforming types: ``AttributeValue``, `Int`, `Int16`, `Int32`, `Int64`, `Double`, `Float`,
/// `Decimal`, `String`, `Bool`, `Date`, `Data`, `UUID`, `URL`, ``ObjectID``, `Optional` of any
/// of them (`nil` becomes ``AttributeValue/null``), and `Array` and `Set` of any of them, which
/// become an ``FetchExpression/aggregate(_:)`` of constants for `IN` and `BETWEEN` (a set's
/// elements come in the set's iteration order).
///
/// To conform another type, return the expression the placeholder stands for. A type that
/// is also ``AttributeValueConvertible`` gets ``predicateExpression`` for free as the constant
/// ``AttributeValueConvertible/attributeValue``. `%K` accepts only a string constant, the
/// integer placeholders (`%d` and others) only integer constants, and `%f`/`%lf` only numeric
/// constants; `%@` accepts any expression.
public protocol PredicateArgument: Sendable {
    /// The expression a placeholder filled with this value stands for.
    var predicateExpression: FetchExpression { get }
}

extension PredicateArgument where Self: AttributeValueConvertible {
    /// The value as a constant.
    public var predicateExpression: FetchExpression { .constant(attributeValue) }
}

extension AttributeValue: PredicateArgument {}
extension Int: PredicateArgument {}
extension Int16: PredicateArgument {}
extension Int32: PredicateArgument {}
extension Int64: PredicateArgument {}
extension Double: PredicateArgument {}
extension Float: PredicateArgument {}
extension Decimal: PredicateArgument {}
extension String: PredicateArgument {}
extension Bool: PredicateArgument {}
extension Date: PredicateArgument {}
extension Data: PredicateArgument {}
extension UUID: PredicateArgument {}
extension URL: PredicateArgument {}
extension ObjectID: PredicateArgument {}

extension Optional: PredicateArgument where Wrapped: PredicateArgument {
    /// The wrapped value's expression, or the constant ``AttributeValue/null`` for `nil`.
    public var predicateExpression: FetchExpression {
        switch self {
        case .some(let wrapped): wrapped.predicateExpression
        case .none: .constant(.null)
        }
    }
}

extension Array: PredicateArgument where Element: PredicateArgument {
    /// An aggregate of the elements' expressions, in order.
    public var predicateExpression: FetchExpression { .aggregate(map(\.predicateExpression)) }
}

extension Set: PredicateArgument where Element: PredicateArgument {
    /// An aggregate of the elements' expressions, in the set's iteration order.
    public var predicateExpression: FetchExpression { .aggregate(map(\.predicateExpression)) }
}
