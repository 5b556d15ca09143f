import Foundation

extension NumericValue {
    /// The number as an attribute value: `integer64`, `decimal` or `double`.
    var attributeValue: AttributeValue {
        switch self {
        case .integer(let value): .integer64(value)
        case .decimal(let value): .decimal(value)
        case .floating(let value): .double(value)
        }
    }

    /// The number as a decimal; only meaningful for integers and decimals.
    private var decimalValue: Decimal {
        switch self {
        case .integer(let value): Decimal(value)
        case .decimal(let value): value
        case .floating(let value): Decimal(value)
        }
    }

    /// `lhs + rhs`: exact for integers (a decimal when the sum overflows `Int64`) and
    /// decimals, `Double` as soon as either side is floating-point.
    static func + (lhs: NumericValue, rhs: NumericValue) -> NumericValue {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)):
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? .decimal(Decimal(a) + Decimal(b)) : .integer(sum)
        case (.floating, _), (_, .floating):
            return .floating(lhs.doubleValue + rhs.doubleValue)
        default:
            return .decimal(lhs.decimalValue + rhs.decimalValue)
        }
    }

    /// `lhs - rhs`, with the same kinds as `+`.
    static func - (lhs: NumericValue, rhs: NumericValue) -> NumericValue {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)):
            let (difference, overflow) = a.subtractingReportingOverflow(b)
            return overflow ? .decimal(Decimal(a) - Decimal(b)) : .integer(difference)
        case (.floating, _), (_, .floating):
            return .floating(lhs.doubleValue - rhs.doubleValue)
        default:
            return .decimal(lhs.decimalValue - rhs.decimalValue)
        }
    }

    /// `lhs * rhs`, with the same kinds as `+`.
    static func * (lhs: NumericValue, rhs: NumericValue) -> NumericValue {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)):
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? .decimal(Decimal(a) * Decimal(b)) : .integer(product)
        case (.floating, _), (_, .floating):
            return .floating(lhs.doubleValue * rhs.doubleValue)
        default:
            return .decimal(lhs.decimalValue * rhs.decimalValue)
        }
    }

    /// `lhs / rhs`: a decimal quotient for integers and decimals (so `7 / 2` is `3.5`),
    /// `Double` as soon as either side is floating-point; `nil` when `rhs` is zero and
    /// neither side is floating-point.
    static func / (lhs: NumericValue, rhs: NumericValue) -> NumericValue? {
        switch (lhs, rhs) {
        case (.floating, _), (_, .floating):
            return .floating(lhs.doubleValue / rhs.doubleValue)
        default:
            if rhs.decimalValue.isZero { return nil }
            return .decimal(lhs.decimalValue / rhs.decimalValue)
        }
    }

    /// The absolute value; `Int64.min` becomes a decimal.
    var magnitude: NumericValue {
        switch self {
        case .integer(let value):
            return value == .min ? .decimal(-Decimal(value)) : .integer(Swift.abs(value))
        case .decimal(let value):
            return .decimal(value < 0 ? -value : value)
        case .floating(let value):
            return .floating(Swift.abs(value))
        }
    }

    /// `lhs` raised to the power `rhs`: exact for an integer to a non-negative integer power
    /// while the result fits in `Int64`, `Double` otherwise (as `pow`).
    static func power(_ lhs: NumericValue, _ rhs: NumericValue) -> NumericValue {
        if case .integer(let base) = lhs, case .integer(let exponent) = rhs, exponent >= 0 {
            var result: Int64 = 1
            var overflow = false
            for _ in 0..<min(exponent, 64) where !overflow {
                (result, overflow) = result.multipliedReportingOverflow(by: base)
            }
            if !overflow && (exponent <= 64 || base == 0 || base == 1) { return .integer(result) }
            if !overflow && base == -1 { return .integer(exponent % 2 == 0 ? 1 : -1) }
        }
        return .floating(Foundation.pow(lhs.doubleValue, rhs.doubleValue))
    }

    /// The remainder of `lhs` divided by `rhs`, with the sign of `lhs`: exact for integers and
    /// decimals, `fmod` as soon as either side is floating-point; `nil` when `rhs` is zero and
    /// neither side is floating-point.
    static func remainder(_ lhs: NumericValue, _ rhs: NumericValue) -> NumericValue? {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)):
            guard b != 0 else { return nil }
            return b == -1 ? .integer(0) : .integer(a % b)
        case (.floating, _), (_, .floating):
            return .floating(Foundation.fmod(lhs.doubleValue, rhs.doubleValue))
        default:
            let (a, b) = (lhs.decimalValue, rhs.decimalValue)
            guard !b.isZero else { return nil }
            var quotient = a / b
            var truncated = Decimal()
            NSDecimalRound(&truncated, &quotient, 0, .down)
            return .decimal(a - truncated * b)
        }
    }
}
