/// A source object as a value expression sees it: its stored values and to-many members,
/// with the objects its relationships lead to read from the source store when an expression
/// reaches them.
final class MigrationSourceObject: KeyValueResolving {
    let objectID: ObjectID
    let reader: MigrationSourceReader
    private var loaded: (values: PropertyValues, members: [String: [ObjectID]])?

    /// An object whose values are already read.
    init(objectID: ObjectID, values: PropertyValues, members: [String: [ObjectID]], reader: MigrationSourceReader) {
        self.objectID = objectID
        self.reader = reader
        self.loaded = (values, members)
    }

    /// An object whose values are read when first asked for.
    init(objectID: ObjectID, reader: MigrationSourceReader) {
        self.objectID = objectID
        self.reader = reader
    }

    var objectIdentity: AttributeValue { .objectID(objectID) }

    func resolvedValue(forKey key: String) -> ResolvedValue? {
        guard let entity = reader.schema.entitiesByName[objectID.entityName] else { return nil }
        if let relationship = entity.relationshipsByName[key], relationship.isToMany {
            let members = loaded?.members[key] ?? reader.members(of: objectID, relationship: key)
            return members.map { .objects($0.map { MigrationSourceObject(objectID: $0, reader: reader) }) }
        }
        guard entity.attributesByName[key] != nil || entity.relationshipsByName[key] != nil else { return nil }
        if loaded == nil {
            guard let values = reader.values(of: objectID) else { return nil }
            loaded = (values, [:])
        }
        guard let value = loaded?.values[key] else { return .value(.null) }
        if case .objectID(let id) = value, entity.relationshipsByName[key] != nil {
            return .object(MigrationSourceObject(objectID: id, reader: reader))
        }
        return .value(value)
    }
}

/// Reads objects from a migration's source store for ``MigrationSourceObject``; the first
/// error is kept so that the migration reports it rather than an unknown key.
final class MigrationSourceReader {
    let store: any IncrementalStore
    let schema: ModelSchema
    private(set) var firstError: (any Error)?

    /// The first error a read met since the last call, which it forgets.
    func takeError() -> (any Error)? {
        defer { firstError = nil }
        return firstError
    }

    /// Keeps `error` unless an earlier one is kept.
    func record(_ error: any Error) {
        if firstError == nil { firstError = error }
    }

    init(store: any IncrementalStore, schema: ModelSchema) {
        self.store = store
        self.schema = schema
    }

    func values(of id: ObjectID) -> PropertyValues? {
        guard id.storeIdentifier == store.identifier else { return nil }
        do {
            return try store.snapshots(for: [id]).first?.values
        } catch {
            record(error)
            return nil
        }
    }

    func members(of id: ObjectID, relationship: String) -> [ObjectID]? {
        guard id.storeIdentifier == store.identifier else { return nil }
        do {
            return try store.relatedObjectIDs(of: id, relationship: relationship)
        } catch {
            record(error)
            return nil
        }
    }
}
