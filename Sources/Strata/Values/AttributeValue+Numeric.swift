import Foundation

/// The numeric reading of a value, used to compare numbers of different widths.
enum NumericValue {
    case integer(Int64)
    case decimal(Decimal)
    case floating(Double)

    /// The nearest `Double`. A decimal is converted from its exact digits, so the result is
    /// correctly rounded.
    var doubleValue: Double {
        switch self {
        case .integer(let value): Double(value)
        case .decimal(let value): Double(value.description) ?? NSDecimalNumber(decimal: value).doubleValue
        case .floating(let value): value
        }
    }

    /// Orders two numbers; `nil` when either is NaN.
    static func compare(_ lhs: NumericValue, _ rhs: NumericValue) -> ComparisonResult? {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)):
            return order(a, b)
        case (.decimal(let a), .decimal(let b)):
            if a.isNaN || b.isNaN { return nil }
            return order(a, b)
        case (.decimal(let a), .integer(let b)):
            if a.isNaN { return nil }
            return order(a, Decimal(b))
        case (.integer(let a), .decimal(let b)):
            if b.isNaN { return nil }
            return order(Decimal(a), b)
        case (.integer(let a), .floating(let b)):
            return compare(integer: a, double: b)
        case (.floating(let a), .integer(let b)):
            return compare(integer: b, double: a).map(reversed)
        case (.decimal(let a), .floating(let b)):
            return compare(decimal: a, double: b)
        case (.floating(let a), .decimal(let b)):
            return compare(decimal: b, double: a).map(reversed)
        default:
            let a = lhs.doubleValue
            let b = rhs.doubleValue
            if a.isNaN || b.isNaN { return nil }
            return order(a, b)
        }
    }

    /// Orders an integer and a double exactly, without rounding the integer to a double.
    private static func compare(integer: Int64, double: Double) -> ComparisonResult? {
        if double.isNaN { return nil }
        if double >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if double < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = Int64(double.rounded(.down))
        if integer != whole { return order(integer, whole) }
        return double == double.rounded(.down) ? .orderedSame : .orderedAscending
    }

    /// Orders a decimal and a double through the double's ``decimalImage(of:)``, exactly;
    /// as doubles when the image is outside `Decimal`'s range.
    private static func compare(decimal: Decimal, double: Double) -> ComparisonResult? {
        if decimal.isNaN || double.isNaN { return nil }
        if double.isInfinite { return double > 0 ? .orderedAscending : .orderedDescending }
        if let image = decimalImage(of: double) { return order(decimal, image) }
        return order(NumericValue.decimal(decimal).doubleValue, double)
    }

    /// The decimal a double stands for when it meets a decimal: a whole value in `Int64`'s
    /// range exactly, any other value as the shortest decimal that converts back to it
    /// (Swift's `description`, so `0.1` stands for 0.1); `nil` for NaN, infinities, and
    /// values outside `Decimal`'s range.
    static func decimalImage(of double: Double) -> Decimal? {
        if let whole = NumericValue.floating(double).exactInteger { return Decimal(whole) }
        guard double.isFinite, let image = Decimal(string: double.description), !image.isNaN else { return nil }
        return image
    }

    private static func reversed(_ result: ComparisonResult) -> ComparisonResult {
        switch result {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }

    /// The value as an `Int64` when it is a whole number in range.
    var exactInteger: Int64? {
        switch self {
        case .integer(let value):
            return value
        case .decimal(let value):
            guard !value.isNaN, let whole = Int64(value.description), Decimal(whole) == value else { return nil }
            return whole
        case .floating(let value):
            guard value.rounded() == value, value >= -9_223_372_036_854_775_808.0,
                value < 9_223_372_036_854_775_808.0
            else { return nil }
            return Int64(value)
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }
}

extension AttributeValue {
    /// The value as a number when it is one (integers, decimal, double, float, boolean).
    var numericValue: NumericValue? {
        switch self {
        case .integer16(let v): .integer(Int64(v))
        case .integer32(let v): .integer(Int64(v))
        case .integer64(let v): .integer(v)
        case .boolean(let v): .integer(v ? 1 : 0)
        case .decimal(let v): .decimal(v)
        case .double(let v): .floating(v)
        case .float(let v): .floating(Double(v))
        default: nil
        }
    }
}
