/// Literals make values easy to write: `42` is `.integer64(42)`, `0.5` is `.double(0.5)`,
/// `"x"` is `.string("x")`, `true` is `.boolean(true)` and `nil` is `.null`.
extension AttributeValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(integerLiteral value: Int64) { self = .integer64(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(nilLiteral: ()) { self = .null }
}
