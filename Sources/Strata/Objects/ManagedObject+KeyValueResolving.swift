extension ManagedObject: KeyValueResolving {
    /// The object's current value for `key` for predicate evaluation and sorting: pending changes
    /// included, faults fired, relationships followed within the context. A fault whose record
    /// is gone reads as having no values.
    public func resolvedValue(forKey key: String) -> ResolvedValue? {
        if let relationship = entity.relationshipsByName[key] {
            if relationship.isToMany {
                return .objects((try? objects(forKey: key)) ?? [])
            }
            return (try? object(forKey: key)).flatMap { $0.map(ResolvedValue.object) } ?? .value(.null)
        }
        guard entity.attributesByName[key] != nil else { return nil }
        return .value((try? value(forKey: key)) ?? .null)
    }

    /// The object's ID.
    public var objectIdentity: AttributeValue { .objectID(objectID) }
}
