/// Arithmetic on numbers a store reads from its file or a server replies with: primary-key
/// counters, versions, history numbers. Such a number at its limit is a damaged (or crafted)
/// store, reported as `corrupt`, never an arithmetic trap in the process that reads it.
package enum StoredCounter {
    /// `value + amount`.
    ///
    /// - Parameter what: names the counter, its store and where it is kept, for the error.
    /// - Throws: ``StoreError`` with code `corrupt` when the sum would pass `Int64.max` (or
    ///   `Int64.min`).
    package static func adding(_ amount: Int64, to value: Int64, _ what: @autoclosure () -> String) throws -> Int64 {
        let (sum, overflow) = value.addingReportingOverflow(amount)
        guard !overflow else {
            throw StoreError(
                code: .corrupt,
                message: "\(what()) is \(value), too large to count \(amount) further; the store is damaged.")
        }
        return sum
    }

    /// `value + 1`, as ``adding(_:to:_:)``.
    package static func next(after value: Int64, _ what: @autoclosure () -> String) throws -> Int64 {
        try adding(1, to: value, what())
    }
}
