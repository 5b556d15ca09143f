extension PersistentStoreCoordinator {
    /// Points the references other added stores keep to objects of `migrated`'s configuration
    /// (relationships across stores, docs/CROSS-STORE-RELATIONSHIPS.md) at the objects' new
    /// IDs, after moving a store to another type gave some of them new numbers (a destination
    /// handing out another kind of reference than the source's). The stores are written
    /// in one save, all or nothing across them (``save(_:)``), with the objects whose
    /// references changed, their versions raised by one; the context's inverse upkeep is not
    /// involved, since both sides already agree.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/migrationFailed`` when reading or
    ///   saving fails: the store is moved, and the other stores keep the old IDs.
    func renumberReferences(to migrated: any IncrementalStore, as associations: MigrationAssociations) throws {
        do {
            let shares = try renumberingShares(to: migrated, as: associations)
            guard !shares.isEmpty else { return }
            try save(shares)
        } catch {
            throw StoreError(
                code: .migrationFailed,
                message: "\(Self.name(of: migrated)) was moved, but the references other stores keep to its objects "
                    + "could not be given their new IDs; they still name the old ones.",
                underlying: error)
        }
    }

    /// Each other store's changes giving its references to `migrated`'s objects their new IDs.
    private func renumberingShares(
        to migrated: any IncrementalStore, as associations: MigrationAssociations
    ) throws -> [(store: any IncrementalStore, changes: StoreChangeSet)] {
        let moved = Set(model.entityNames(inConfiguration: migrated.configurationName))
        let mapping = associations.changedIDsBySourceID
        guard !mapping.isEmpty else { return [] }
        var shares: [(store: any IncrementalStore, changes: StoreChangeSet)] = []
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
                changes += try renumbered(relationships, of: name, in: store, mapping)
            }
            if !changes.isEmpty { shares.append((store, StoreChangeSet(updated: changes))) }
        }
        return shares
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
