extension MigrationEngine {
    /// Gives the destination, when it was opened with ``StoreOptions/tracksPersistentHistory``,
    /// the source's persistent history in place of the transactions its own saves of the copy
    /// recorded: transaction numbers, timestamps and fields as they were, so that readers'
    /// tokens stay good, and each change naming the object made from the changed one. A change
    /// of an object the migration did not carry over (deleted before it, or filtered) keeps its
    /// entity's destination name and its reference negated, so that it never names an object of
    /// the migrated store; a change of an entity with no destination is dropped, and so are
    /// updated property names the destination entity lacks. A source without history gives an
    /// empty one. A destination that does not track history is left as it is.
    func copyHistory(_ associations: MigrationAssociations, _ planned: [MigrationPlannedMapping]) throws {
        guard destination.options.tracksPersistentHistory, destination.capabilities.contains(.persistentHistory)
        else { return }
        let transactions =
            source.capabilities.contains(.persistentHistory)
            ? try source.historyTransactions(after: .transactionNumber(0), includingChanges: true) : []
        var destinationEntities: [String: EntitySchema] = [:]
        for plan in planned where destinationEntities[plan.sourceEntity.name] == nil {
            destinationEntities[plan.sourceEntity.name] = plan.destinationEntity
        }
        let copies = transactions.map { transaction in
            var transaction = transaction
            transaction.token.storeIdentifier = destination.identifier
            transaction.changes = transaction.changes?.compactMap { change in
                migrated(change, associations, destinationEntities, token: transaction.token)
            }
            return transaction
        }
        try destination.replaceHistory(with: copies)
    }

    /// `change` as the destination's history holds it, or `nil` when its entity has no
    /// destination.
    private func migrated(
        _ change: PersistentHistoryChange, _ associations: MigrationAssociations,
        _ destinationEntities: [String: EntitySchema], token: PersistentHistoryToken
    ) -> PersistentHistoryChange? {
        var change = change
        change.transactionToken = token
        let entity: EntitySchema
        if let newID = associations.lookUp(change.changedObjectID)?.newID,
            let newEntity = destinationSchema.entitiesByName[newID.entityName]
        {
            change.changedObjectID = newID
            entity = newEntity
        } else {
            guard let destinationEntity = destinationEntities[change.changedObjectID.entityName] else { return nil }
            var reference = change.changedObjectID.reference
            if case .integer(let number) = reference { reference = .integer(-abs(number)) }
            change.changedObjectID = ObjectID(
                ObjectID.Namespace(storeIdentifier: destination.identifier, entityName: destinationEntity.name),
                reference: reference)
            entity = destinationEntity
        }
        if let updated = change.updatedProperties {
            let names = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
            change.updatedProperties = updated.intersection(names)
        }
        return change
    }
}
