extension PersistentStoreCoordinator {
    /// Points the references other added stores keep to objects of `migrated`'s configuration
    /// (relationships across stores, docs/CROSS-STORE-RELATIONSHIPS.md) at the objects' new
    /// IDs, after moving a store to another type numbered them afresh. Each store is written
    /// once, with the objects whose references changed, their versions raised by one; the
    /// context's inverse upkeep is not involved, since both sides already agree.
    ///
    /// - Throws: A store's error when reading or saving fails; the stores saved before it keep
    ///   the new IDs.
    func renumberReferences(to migrated: any IncrementalStore, as associations: MigrationAssociations) throws {
        let moved = Set(model.entityNames(inConfiguration: migrated.configurationName))
        var newIDs: [ObjectID: ObjectID]?
        for store in stores where store !== migrated && store.capabilities.contains(.crossStoreRelationships) {
            let held = Set(model.entityNames(inConfiguration: store.configurationName))
            var changes: [StoreChangeSet.ObjectChange] = []
            for name in held.sorted() {
                guard let entity = schema.entitiesByName[name] else { continue }
                let relationships = entity.relationships.filter {
                    !$0.isTransient && moved.contains($0.destinationEntityName)
                        && !held.contains($0.destinationEntityName)
                }
                guard !relationships.isEmpty else { continue }
                let mapping = newIDs ?? associations.newIDsBySourceID
                newIDs = mapping
                changes += try renumbered(relationships, of: name, in: store, mapping)
            }
            guard !changes.isEmpty else { continue }
            try save(StoreChangeSet(updated: changes), to: store)
        }
    }

    /// The changes giving the objects of entity `name` in `store` (not its sub-entities, which
    /// come in their own turn) the new IDs `mapping` names in `relationships`.
    private func renumbered(
        _ relationships: [RelationshipDescription], of name: String, in store: any IncrementalStore,
        _ mapping: [ObjectID: ObjectID]
    ) throws -> [StoreChangeSet.ObjectChange] {
        let request = StoreFetchRequest(entityName: name, includesSubentities: false, resultType: .snapshots)
        guard case .snapshots(let snapshots) = try store.execute(request), !snapshots.isEmpty else { return [] }
        let ids = snapshots.map(\.objectID)
        var members: [String: [ObjectID: [ObjectID]]] = [:]
        for relationship in relationships where relationship.isToMany {
            members[relationship.name] = try store.relatedObjectIDs(ofEach: ids, relationship: relationship.name)
        }
        return snapshots.compactMap { snapshot in
            var values = snapshot.values
            var toMany: [String: [ObjectID]] = [:]
            var changedKeys: Set<String> = []
            for relationship in relationships {
                if relationship.isToMany {
                    let old = members[relationship.name]?[snapshot.objectID] ?? []
                    guard old.contains(where: { mapping[$0] != nil }) else { continue }
                    toMany[relationship.name] = old.map { mapping[$0] ?? $0 }
                } else {
                    guard case .objectID(let old)? = values[relationship.name], let new = mapping[old] else { continue }
                    values[relationship.name] = .objectID(new)
                }
                changedKeys.insert(relationship.name)
            }
            guard !changedKeys.isEmpty else { return nil }
            return StoreChangeSet.ObjectChange(
                objectID: snapshot.objectID, values: values, toManyRelationships: toMany,
                expectedVersion: snapshot.version, changedKeys: changedKeys)
        }
    }
}
