import Foundation

extension FetchSortDescriptor {
    /// `descriptor`, a Foundation `SortDescriptor` on a key path (`SortDescriptor(\Book.title)`),
    /// as a sort on the property it names, in its order: values, and strings with the
    /// `.lexical` comparator, sort as ``Comparison/binary`` (strings by Unicode scalars, as Core
    /// Data's SQLite store sorts them); where Foundation offers `.localizedStandard` (Apple's
    /// platforms), it sorts as ``Comparison/localizedStandard``.
    ///
    /// - Throws: `FetchPredicateError` with code `.untranslatable` for a descriptor without a
    ///   key path, a key path that does not name properties, or another string comparator
    ///   (`.localized`), which has no counterpart in Strata.
    public init<Object>(_ descriptor: SortDescriptor<Object>) throws(FetchPredicateError) {
        guard let keyPath = descriptor.keyPath, let type = Object.self as? ManagedObject.Type,
            let path = KeyPathProbe.path(of: keyPath, from: type)
        else {
            throw FetchPredicateError(
                code: .untranslatable,
                message: "A sort descriptor of \(Object.self) has no key path of managed properties; sort by one, "
                    + "such as SortDescriptor(\\\(Object.self).name).")
        }
        var comparison = Comparison.binary
        if var comparator = descriptor.stringComparator {
            comparator.order = .forward
            switch comparator {
            case .lexical: comparison = .binary
            #if canImport(Darwin)
                case .localizedStandard: comparison = .localizedStandard
            #endif
            default:
                throw FetchPredicateError(
                    code: .untranslatable,
                    message: "The sort descriptor on \(keyPath) uses the string comparator \(comparator); Strata "
                        + "sorts strings by .lexical or .localizedStandard.")
            }
        }
        self.init(path, ascending: descriptor.order == .forward, comparison: comparison)
    }
}

extension FetchRequest {
    /// A request for `Result`'s objects meeting `predicate`, in the order of `sortBy`:
    ///
    /// ```swift
    /// let request = try FetchRequest<Book>(
    ///     predicate: #Predicate { $0.pages > 100 && $0.author?.name == "Ada" },
    ///     sortBy: [SortDescriptor(\.title)])
    /// ```
    ///
    /// The predicate and sort are translated here, once (``FetchPredicate/init(_:)``,
    /// ``FetchSortDescriptor/init(_:)``), and stores push them down as they do the same
    /// request written with format strings.
    ///
    /// - Throws: `FetchPredicateError` with code `.untranslatable` naming a part of the
    ///   predicate or a sort that has no form in Strata's grammar.
    public init(predicate: Predicate<Result>? = nil, sortBy: [SortDescriptor<Result>] = [])
        throws(FetchPredicateError)
    {
        self.init()
        self.predicate = try predicate.map { (predicate) throws(FetchPredicateError) in try FetchPredicate(predicate) }
        var sorts: [FetchSortDescriptor] = []
        for descriptor in sortBy { sorts.append(try FetchSortDescriptor(descriptor)) }
        sortDescriptors = sorts
    }
}
