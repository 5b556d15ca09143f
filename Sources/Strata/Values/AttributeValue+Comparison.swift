import Foundation

extension AttributeValue {
    /// Orders two values; `nil` when they cannot be ordered.
    ///
    /// The rules, which every store's predicate translation follows:
    /// - **Numbers** of any width (and booleans, as 0 and 1) compare by numeric value; see
    ///   ``AttributeValue``. NaN is unordered.
    /// - **Strings** compare by Unicode scalar values (the order of SQLite's `BINARY` collation
    ///   on UTF-8). With ``StringComparisonOptions/caseInsensitive`` both sides are case-folded
    ///   (`ß` ↔ `ss`), with ``StringComparisonOptions/diacriticInsensitive`` diacritics are
    ///   removed (`é` ↔ `e`) first.
    /// - **Dates** compare in time order; **data** bytewise (shorter prefix first); **UUIDs**
    ///   by their 16 bytes; **URLs** by their absolute strings; **object IDs** are equal or
    ///   unordered.
    /// - `null` equals `null` and is unordered against anything else.
    /// - Values of unrelated kinds are unordered.
    public func compare(_ other: AttributeValue, options: StringComparisonOptions = []) -> ComparisonResult? {
        if let a = numericValue, let b = other.numericValue { return NumericValue.compare(a, b) }
        switch (self, other) {
        case (.null, .null):
            return .orderedSame
        case (.string(let a), .string(let b)):
            return Self.compareStrings(a, b, options: options)
        case (.date(let a), .date(let b)):
            return Self.order(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        case (.binary(let a), .binary(let b)):
            return Self.orderBytes(Array(a), Array(b))
        case (.uuid(let a), .uuid(let b)):
            return Self.orderBytes(a.bytes, b.bytes)
        case (.uri(let a), .uri(let b)):
            return Self.compareStrings(a.absoluteString, b.absoluteString, options: [])
        case (.objectID(let a), .objectID(let b)):
            return a == b ? .orderedSame : nil
        default:
            return nil
        }
    }

    /// Orders two strings under `options` (see ``compare(_:options:)``).
    static func compareStrings(_ a: String, _ b: String, options: StringComparisonOptions) -> ComparisonResult {
        let left = normalized(a, options)
        let right = normalized(b, options)
        var l = left.unicodeScalars.makeIterator()
        var r = right.unicodeScalars.makeIterator()
        while true {
            switch (l.next(), r.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case (let x?, let y?) where x != y: return x.value < y.value ? .orderedAscending : .orderedDescending
            default: continue
            }
        }
    }

    /// `string` folded as `options` ask; unchanged when they are empty.
    static func normalized(_ string: String, _ options: StringComparisonOptions) -> String {
        if options.isEmpty { return string }
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        let folded = string.folding(options: folding, locale: nil)
        return folded.precomposedStringWithCanonicalMapping
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }

    private static func orderBytes(_ a: [UInt8], _ b: [UInt8]) -> ComparisonResult {
        if a == b { return .orderedSame }
        return a.lexicographicallyPrecedes(b) ? .orderedAscending : .orderedDescending
    }
}

extension UUID {
    /// The 16 bytes in RFC 4122 order.
    var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}
