import Foundation

extension AttributeValue: Hashable {
    /// Whether two values are equal under the rules in ``AttributeValue``'s overview.
    public static func == (lhs: AttributeValue, rhs: AttributeValue) -> Bool {
        if let a = lhs.numericValue, let b = rhs.numericValue {
            if a.doubleValue.isNaN && b.doubleValue.isNaN { return true }
            return NumericValue.compare(a, b) == .orderedSame
        }
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.date(let a), .date(let b)): return a == b
        case (.binary(let a), .binary(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.uri(let a), .uri(let b)): return a.absoluteString == b.absoluteString
        case (.objectID(let a), .objectID(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        if let number = numericValue {
            hasher.combine(0 as UInt8)
            Self.hashNumber(number, into: &hasher)
            return
        }
        switch self {
        case .string(let v):
            hasher.combine(1 as UInt8)
            for scalar in v.unicodeScalars { hasher.combine(scalar.value) }
        case .date(let v):
            hasher.combine(2 as UInt8)
            hasher.combine(v)
        case .binary(let v):
            hasher.combine(3 as UInt8)
            hasher.combine(v)
        case .uuid(let v):
            hasher.combine(4 as UInt8)
            hasher.combine(v)
        case .uri(let v):
            hasher.combine(5 as UInt8)
            hasher.combine(v.absoluteString)
        case .objectID(let v):
            hasher.combine(6 as UInt8)
            hasher.combine(v)
        default:
            hasher.combine(7 as UInt8)
        }
    }

    /// Hashes a number so that equal numbers of any width hash alike: NaN as one value, whole
    /// values that fit in `Int64` as that integer, other decimals as themselves, other
    /// doubles as their decimal image (see `NumericValue.decimalImage(of:)`), and what has no
    /// decimal image by its bits.
    private static func hashNumber(_ number: NumericValue, into hasher: inout Hasher) {
        if number.doubleValue.isNaN {
            hasher.combine(Double.nan.bitPattern)
        } else if let whole = number.exactInteger {
            hasher.combine(whole)
        } else if case .decimal(let value) = number {
            hasher.combine(value)
        } else if let image = NumericValue.decimalImage(of: number.doubleValue) {
            hasher.combine(image)
        } else {
            hasher.combine(number.doubleValue.bitPattern)
        }
    }
}
