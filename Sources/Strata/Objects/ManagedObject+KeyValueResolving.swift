extension ManagedObject: KeyValueResolving {
    /// The object's current value for `key` for predicate evaluation and sorting: pending changes
    /// included, faults fired, relationships followed within the context. A fault whose record
    /// is gone reads as having no values.
    public func resolvedValue(forKey key: String) -> ResolvedValue? {
        switch entity.properties[key]?.kind {
        case .toMany: return .objects((try? objects(forKey: key)) ?? [])
        case .toOne: return (try? object(forKey: key)).flatMap { $0.map(ResolvedValue.object) } ?? .value(.null)
        case .attribute: return .value((try? value(forKey: key)) ?? .null)
        case nil: return nil
        }
    }

    /// The object's ID.
    public var objectIdentity: AttributeValue { .objectID(objectID) }
}
