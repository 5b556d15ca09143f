import Foundation

/// The Finder-like string order of ``FetchSortDescriptor/Comparison/localizedStandard``.
///
/// Both strings are folded ignoring case and diacritics, then compared Unicode scalar by
/// scalar, except that where both have a run of decimal digits (of any script) the runs
/// compare as whole numbers: `"file2"` comes before `"file10"`, and `"a07"` equals `"a7"`
/// at this stage. Strings still equal are ordered by their unfolded Unicode scalars, so
/// only identical strings compare as the same.
enum LocalizedStandardOrder {
    /// Orders `a` and `b`.
    static func compare(_ a: String, _ b: String) -> ComparisonResult {
        let loose = compareFolded(
            Array(AttributeValue.normalized(a, [.caseInsensitive, .diacriticInsensitive]).unicodeScalars),
            Array(AttributeValue.normalized(b, [.caseInsensitive, .diacriticInsensitive]).unicodeScalars)
        )
        if loose != .orderedSame { return loose }
        return AttributeValue.compareStrings(a, b, options: [])
    }

    private static func compareFolded(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> ComparisonResult {
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if digit(a[i]) != nil, digit(b[j]) != nil {
                let left = digitRun(a, from: &i)
                let right = digitRun(b, from: &j)
                let result = compareNumbers(left, right)
                if result != .orderedSame { return result }
                continue
            }
            if a[i] != b[j] { return a[i].value < b[j].value ? .orderedAscending : .orderedDescending }
            i += 1
            j += 1
        }
        if i < a.count { return .orderedDescending }
        if j < b.count { return .orderedAscending }
        return .orderedSame
    }

    /// The value of a decimal digit of any script; `nil` for other scalars.
    private static func digit(_ scalar: Unicode.Scalar) -> Int? {
        guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue else {
            return nil
        }
        return Int(value)
    }

    /// The digits of the run starting at `index`, without leading zeros; moves `index` past it.
    private static func digitRun(_ scalars: [Unicode.Scalar], from index: inout Int) -> [Int] {
        var digits: [Int] = []
        while index < scalars.count, let value = digit(scalars[index]) {
            if !(digits.isEmpty && value == 0) { digits.append(value) }
            index += 1
        }
        return digits
    }

    /// Orders two whole numbers given as digits without leading zeros, of any length.
    private static func compareNumbers(_ a: [Int], _ b: [Int]) -> ComparisonResult {
        if a.count != b.count { return a.count < b.count ? .orderedAscending : .orderedDescending }
        for (x, y) in zip(a, b) where x != y {
            return x < y ? .orderedAscending : .orderedDescending
        }
        return .orderedSame
    }
}
