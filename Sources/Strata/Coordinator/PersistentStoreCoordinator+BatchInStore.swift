/// Batch requests a store carries out itself (``StoreCapabilities/batchOperations``), when
/// the result is exactly what the core's context would make of them. docs/BATCH.md lists when.
extension PersistentStoreCoordinator {
    /// Runs `request` in its store, when one store holds the entity, declares
    /// ``StoreCapabilities/batchOperations`` and takes the update as ``StoreBatchUpdate`` says;
    /// `nil` when the update goes through a context.
    func updateInStore(_ request: BatchUpdateRequest, author: String?, contextName: String?) throws -> BatchResult? {
        guard let store = batchStore(forEntity: request.entityName, predicate: request.predicate),
            let entity = schema.entitiesByName[request.entityName]
        else { return nil }
        var values: [String: AttributeValue] = [:]
        var expressions: [String: FetchExpression] = [:]
        let constrained = Set(
            ([entity.name] + entity.descendantNames).flatMap { schema.uniqueKeys(of: $0) }.flatMap(\.keys))
        for (key, expression) in request.propertiesToUpdate {
            guard let attribute = entity.attributesByName[key],
                let rule = entity.attributeRules.first(where: { entity.attributes[$0.index].name == key }),
                !attribute.isTransient, attribute.derivationExpression == nil, attribute.type != .transformable,
                !rule.hasBounds, !constrained.contains(key)
            else { return nil }
            if case .constant(let value) = expression {
                guard attribute.type.accepts(value), rule.isOptional || !value.isNull else { return nil }
                values[key] = value
            } else {
                guard store.capabilities.contains(.batchComputedValues), let keys = expression.plainKeys,
                    keys.allSatisfy({ isStoredAttribute($0, of: entity) })
                else { return nil }
                expressions[key] = expression
            }
        }
        let update = StoreBatchUpdate(
            entityName: request.entityName, includesSubentities: request.includesSubentities,
            predicate: request.predicate, values: values, expressions: expressions,
            listsObjectIDs: request.resultType == .objectIDs,
            history: history(of: store, author: author, contextName: contextName))
        guard let result = try withWriteGates(of: [store], { try store.executeBatchUpdate(update) }) else { return nil }
        let ids = result.objectIDs ?? []
        forgetSnapshots(of: result.objectIDs, in: store)
        announceWrite(to: store)
        return BatchResult(request.resultType, count: result.count, acted: ids) {
            ContextNotification(kind: .didSave, contextName: contextName, updatedObjectIDs: Set(ids))
        }
    }

    /// Runs `request` in its store, when one store holds its objects, declares
    /// ``StoreCapabilities/batchOperations`` and takes the deletion as ``StoreBatchDelete``
    /// says; `nil` when the deletion goes through a context.
    ///
    /// - Throws: ``ContextError/Code/validation`` naming each deny rule that refused the
    ///   deletion, as a context's save does; ``ContextError/Code/objectNotFound`` for an object
    ///   ID the store does not hold; a store's error.
    func deleteInStore(_ request: BatchDeleteRequest, author: String?, contextName: String?) throws -> BatchResult? {
        let target: StoreBatchDelete.Target
        let store: any IncrementalStore
        let entityNames: Set<String>
        if let ids = request.objectIDs {
            guard let first = ids.first, let holder = try? self.store(for: first),
                ids.allSatisfy({ $0.storeIdentifier == first.storeIdentifier }),
                let found = batchStore(forEntity: first.entityName, predicate: nil), found === holder
            else { return nil }
            (target, store, entityNames) = (.objects(ids), holder, Set(ids.map(\.entityName)))
        } else {
            guard let name = request.entityName, let entity = schema.entitiesByName[name],
                let found = batchStore(forEntity: name, predicate: request.predicate)
            else { return nil }
            target = .matching(
                entityName: name, includesSubentities: request.includesSubentities, predicate: request.predicate)
            store = found
            entityNames = Set(entity.names(includingSubentities: request.includesSubentities))
        }
        guard nullifiesValidly(from: entityNames) else { return nil }
        let outcome: StoreBatchDeleteResult
        do {
            let delete = StoreBatchDelete(
                target, listsObjectIDs: request.resultType == .objectIDs,
                history: history(of: store, author: author, contextName: contextName))
            guard let result = try withWriteGates(of: [store], { try store.executeBatchDelete(delete) }) else {
                return nil
            }
            outcome = result
        } catch let error as StoreError where error.code == .unknownObject {
            throw ContextError(code: .objectNotFound, message: error.message)
        }
        if !outcome.denials.isEmpty { throw deniedDeletion(outcome.denials) }
        forgetSnapshots(of: request.resultType == .objectIDs ? outcome.deleted + outcome.updated : nil, in: store)
        announceWrite(to: store)
        return BatchResult(request.resultType, count: outcome.matchedCount, acted: outcome.matched) {
            ContextNotification(
                kind: .didSave, contextName: contextName, updatedObjectIDs: Set(outcome.updated),
                deletedObjectIDs: Set(outcome.deleted))
        }
    }

    /// Whether `key` names an attribute that every object of `entity` and its sub-entities
    /// keeps in its store.
    private func isStoredAttribute(_ key: String, of entity: EntitySchema) -> Bool {
        entity.attributesByName[key].map { !$0.isTransient } ?? false
    }

    /// Makes the row cache forget the snapshots of `objectIDs`, or of every object of `store`
    /// when the store did not list the objects it changed.
    private func forgetSnapshots(of objectIDs: [ObjectID]?, in store: any IncrementalStore) {
        if let objectIDs {
            rowCache.remove(objectIDs)
        } else {
            rowCache.removeSnapshots(ofStore: store.identifier)
        }
    }

    /// The transaction a batch request records in `store`'s persistent history, as a
    /// context's save would record it; `nil` when the store records none.
    private func history(
        of store: any IncrementalStore, author: String?, contextName: String?
    ) -> StoreChangeSet.HistoryInfo? {
        store.options.tracksPersistentHistory
            ? StoreChangeSet.HistoryInfo(author: author, contextName: contextName) : nil
    }

    /// The one store holding `entityName` when it may carry out a batch request itself: it
    /// declares ``StoreCapabilities/batchOperations``, is writable, evaluates `predicate`
    /// itself, and no relationship of its configuration leads to another store's entity (a
    /// store can neither follow such a key path nor apply delete rules in another store).
    private func batchStore(forEntity entityName: String, predicate: FetchPredicate?) -> (any IncrementalStore)? {
        let holders = stores(forEntity: entityName)
        guard holders.count == 1, let store = holders.first, store.capabilities.contains(.batchOperations),
            !store.options.isReadOnly,
            predicate.map({ store.predicateFeatures.isSuperset(of: $0.requiredFeatures) }) ?? true,
            !relatesAcrossStores(store)
        else { return nil }
        return store
    }

    /// Whether a relationship of an entity of `store`'s configuration leads to an entity the
    /// configuration does not hold (docs/CROSS-STORE-RELATIONSHIPS.md).
    private func relatesAcrossStores(_ store: any IncrementalStore) -> Bool {
        let held = Set(model.entityNames(inConfiguration: store.configurationName))
        return held.contains { name in
            schema.entitiesByName[name]?.relationships.contains {
                !$0.isTransient && !held.contains($0.destinationEntityName)
            } ?? false
        }
    }

    /// Whether deleting objects of `entityNames`, and whatever their cascade rules reach,
    /// leaves every object a nullify rule changes valid: each inverse relationship a nullify
    /// rule empties is optional and has no minimum count. Otherwise the deletion goes through
    /// a context, whose save reports the broken rule.
    private func nullifiesValidly(from entityNames: Set<String>) -> Bool {
        var reached = entityNames
        var pending = Array(entityNames)
        while let name = pending.popLast() {
            guard let entity = schema.entitiesByName[name] else { return false }
            for relationship in entity.relationships where !relationship.isTransient {
                guard let destination = schema.entitiesByName[relationship.destinationEntityName] else { return false }
                switch relationship.deleteRule {
                case .cascade:
                    for kind in [destination.name] + destination.descendantNames where reached.insert(kind).inserted {
                        pending.append(kind)
                    }
                case .nullify:
                    guard let inverseName = relationship.inverseName else { continue }
                    guard let inverse = destination.relationshipsByName[inverseName], inverse.isOptional,
                        inverse.minCount == 0
                    else { return false }
                case .deny, .noAction:
                    continue
                }
            }
        }
        return true
    }

    /// The validation error a context's save gives for these broken deny rules.
    private func deniedDeletion(_ denials: [StoreBatchDeleteResult.Denial]) -> ContextError {
        let errors = denials.map { denial in
            ValidationError.deleteDenied(
                denial.objectID, relationship: denial.relationship, holding: denial.destination,
                remainingCount: denial.remainingCount)
        }
        let count = errors.count == 1 ? "1 validation error" : "\(errors.count) validation errors"
        return ContextError(
            code: .validation,
            message: "The batch deletion failed with \(count): " + errors.map(\.message).joined(separator: " "),
            validationErrors: errors)
    }
}
