/// How to order fetched objects by one key path: Core Data's `NSSortDescriptor`.
///
/// ```swift
/// let byName = FetchSortDescriptor("name", comparison: .localizedStandard)
/// let sorted = try FetchSortDescriptor.sorted(people, by: [byName, FetchSortDescriptor("age", ascending: false)])
/// ```
///
/// Values are ordered as SQLite-backed Core Data orders them:
/// - **Null sorts first** when ascending, and therefore last when descending.
/// - Numbers of any width (and booleans, as 0 and 1) compare by value; NaN sorts before
///   every other number. Dates in time order, data bytewise, UUIDs by their bytes, URLs by
///   their absolute strings, object IDs by store identifier, entity name and reference.
/// - Strings follow ``comparison``.
/// - Values of unrelated kinds never compare as equal: they sort by kind, in the order null,
///   numbers, strings, dates, data, UUIDs, URLs, object IDs, so any mix of values has one
///   deterministic order.
///
/// Ascending or not, the order is reversed as a whole, kinds included.
public struct FetchSortDescriptor: Sendable, Hashable {
    /// How strings are compared.
    public enum Comparison: Sendable, Hashable {
        /// By Unicode scalar values, as SQLite's `BINARY` collation.
        case binary
        /// Ignoring case (`[c]`, with `ß` equal to `ss`); strings that differ only in case
        /// are equal, so the next sort descriptor decides.
        case caseInsensitive
        /// Finder-like order: ignoring case and diacritics, with runs of digits compared as
        /// numbers (`"file2"` before `"file10"`). Strings equal in this sense are ordered
        /// by their Unicode scalars, so the order is total. Independent of any locale.
        case localizedStandard
    }

    /// The dotted key path whose values are ordered, such as `name` or `author.name`, or
    /// `tags.@count`. It must not lead through a to-many relationship without a collection
    /// operator.
    public var keyPath: String
    /// Whether smaller values come first.
    public var ascending: Bool
    /// How strings are compared.
    public var comparison: Comparison

    /// Creates a sort descriptor.
    public init(_ keyPath: String, ascending: Bool = true, comparison: Comparison = .binary) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparison = comparison
    }
}
