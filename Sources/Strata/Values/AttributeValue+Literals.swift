/// Literals make values easy to write: `42` is `.integer64(42)`, `0.5` is `.double(0.5)`,
/// `"x"` is `.string("x")` and `true` is `.boolean(true)`. There is deliberately no `nil`
/// literal: with one, a `nil` meant as "no value" in an `AttributeValue?` context would
/// silently become ``AttributeValue/null``; write `.null`.
extension AttributeValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int64) { self = .integer64(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}
