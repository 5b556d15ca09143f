extension StoreChangeSet {
    /// The changes a store records for this change set as transaction `token`, one per object
    /// and numbered from `firstChange`: the insertions, the updates with the keys they changed
    /// (``ObjectChange/changedKeys``, or every key they carry when it is `nil`), and the
    /// deletions with the tombstones of their entities' attributes marked
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion``, read from `stored` (the
    /// object's snapshot before the save). A store reading `firstChange` from its file checks
    /// first that the numbers up to `firstChange` plus the number of changes fit an `Int64`.
    public func historyChanges(
        token: PersistentHistoryToken, firstChange: Int64, schema: ModelSchema, stored: (ObjectID) -> Snapshot?
    ) -> [PersistentHistoryChange] {
        var changes: [PersistentHistoryChange] = []
        changes.reserveCapacity(inserted.count + updated.count + deleted.count)
        func append(_ objectID: ObjectID, _ type: PersistentHistoryChange.ChangeType) {
            changes.append(
                PersistentHistoryChange(
                    changeIdentifier: firstChange &+ Int64(changes.count), changedObjectID: objectID, changeType: type,
                    transactionToken: token))
        }
        for change in inserted { append(change.objectID, .insert) }
        for change in updated {
            append(change.objectID, .update)
            changes[changes.count - 1].updatedProperties = change.historyUpdatedKeys
        }
        for deletion in deleted {
            append(deletion.objectID, .delete)
            let attributes = Self.tombstoneAttributes(of: schema.entitiesByName[deletion.objectID.entityName])
            guard !attributes.isEmpty else { continue }
            let snapshot = stored(deletion.objectID)
            changes[changes.count - 1].tombstone = Dictionary(
                uniqueKeysWithValues: attributes.map { ($0.name, snapshot?.values[$0.name] ?? .null) })
        }
        return changes
    }

    /// The attributes of `entity` whose values a deletion's change keeps, in name order.
    public static func tombstoneAttributes(of entity: EntitySchema?) -> [AttributeDescription] {
        (entity?.attributes ?? []).filter { $0.preservesValueInHistoryOnDeletion && !$0.isTransient }
            .sorted { $0.name < $1.name }
    }
}

extension StoreChangeSet.ObjectChange {
    /// The keys an update records in persistent history: ``changedKeys``, or, when it is `nil`,
    /// every attribute and to-one relationship of ``values`` and every to-many relationship of
    /// ``toManyRelationships``.
    public var historyUpdatedKeys: Set<String> {
        changedKeys ?? Set(values.keys).union(toManyRelationships.keys)
    }
}
