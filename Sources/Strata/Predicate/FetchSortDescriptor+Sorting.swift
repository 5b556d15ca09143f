import Foundation

extension FetchSortDescriptor {
    /// Orders two values as this descriptor does, its direction included.
    public func compare(_ lhs: AttributeValue, _ rhs: AttributeValue) -> ComparisonResult {
        let result = lhs.sortOrder(rhs, comparison: comparison)
        if ascending { return result }
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// Orders two objects by the values at ``keyPath``.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` when the key path is unknown or
    ///   leads through a to-many relationship without a collection operator.
    public func compare(_ lhs: any KeyValueResolving, _ rhs: any KeyValueResolving) throws(FetchPredicateError)
        -> ComparisonResult
    {
        compare(try sortValue(of: lhs), try sortValue(of: rhs))
    }

    /// Orders two objects by `descriptors`: the first descriptor that tells them apart
    /// decides; `.orderedSame` when none does.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` when a key path is unknown or leads
    ///   through a to-many relationship without a collection operator.
    public static func compare(
        _ lhs: any KeyValueResolving, _ rhs: any KeyValueResolving, by descriptors: [FetchSortDescriptor]
    ) throws(FetchPredicateError) -> ComparisonResult {
        for descriptor in descriptors {
            let result = try descriptor.compare(lhs, rhs)
            if result != .orderedSame { return result }
        }
        return .orderedSame
    }

    /// `objects` sorted by `descriptors`, the first descriptor deciding first. The sort is
    /// stable: objects that no descriptor tells apart keep their order.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` when a key path is unknown or leads
    ///   through a to-many relationship without a collection operator.
    /// - Complexity: O(*n* log *n*) comparisons; each key path is read once per object.
    public static func sorted<Object: KeyValueResolving>(
        _ objects: [Object], by descriptors: [FetchSortDescriptor]
    ) throws(FetchPredicateError) -> [Object] {
        try sortedIndices(objects.map { $0 as any KeyValueResolving }, by: descriptors).map { objects[$0] }
    }

    /// `objects` sorted by `descriptors`, stably, the first descriptor deciding first.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` when a key path is unknown or leads
    ///   through a to-many relationship without a collection operator.
    /// - Complexity: O(*n* log *n*) comparisons; each key path is read once per object.
    public static func sorted(
        _ objects: [any KeyValueResolving], by descriptors: [FetchSortDescriptor]
    ) throws(FetchPredicateError) -> [any KeyValueResolving] {
        try sortedIndices(objects, by: descriptors).map { objects[$0] }
    }

    /// The indices of `objects` in sorted order, ties kept in their original order.
    private static func sortedIndices(
        _ objects: [any KeyValueResolving], by descriptors: [FetchSortDescriptor]
    ) throws(FetchPredicateError) -> [Int] {
        var keys: [[AttributeValue]] = []
        keys.reserveCapacity(objects.count)
        for object in objects {
            var row: [AttributeValue] = []
            for descriptor in descriptors { row.append(try descriptor.sortValue(of: object)) }
            keys.append(row)
        }
        return objects.indices.sorted { i, j in
            for (index, descriptor) in descriptors.enumerated() {
                let result = descriptor.compare(keys[i][index], keys[j][index])
                if result != .orderedSame { return result == .orderedAscending }
            }
            return i < j
        }
    }

    /// The value an object is sorted by: the value at ``keyPath``, or the identity of the
    /// object there.
    private func sortValue(of object: any KeyValueResolving) throws(FetchPredicateError) -> AttributeValue {
        let value = try EvaluatedValue.object(object).value(atKeyPath: keyPath, label: keyPath)
        guard let scalar = value.scalar else {
            throw FetchPredicateError(
                code: .evaluation,
                message: "The sort key path '\(keyPath)' gives \(value.kindDescription); sort by a to-one key path, "
                    + "or reduce the collection with an operator such as @count."
            )
        }
        return scalar
    }
}
