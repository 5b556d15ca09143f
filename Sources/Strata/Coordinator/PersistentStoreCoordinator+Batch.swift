import OrderedCollections

/// Batch requests, carried out by the core through a context of their own: the objects are
/// loaded there (not in any context of the caller's), changed, and saved in one save per store,
/// so that delete rules, validation, uniqueness constraints, versions and persistent history
/// behave exactly as in a context's save. docs/BATCH.md describes it.
extension PersistentStoreCoordinator {
    /// Deletes the objects `request` names or matches, with the delete rules' effects, in one
    /// save of their store.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownEntity`` or
    ///   ``ContextError/Code/objectNotFound``; ``ContextError/Code/validation`` naming the
    ///   relationship when a deny rule would be broken (nothing is deleted); a store's error.
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        try execute(request, author: nil, contextName: nil)
    }

    /// Sets the attributes `request` names on the objects it matches, in one save of their
    /// store.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownEntity``,
    ///   ``ContextError/Code/unknownKey`` for a property that is not an attribute of the entity,
    ///   ``ContextError/Code/wrongType`` for a value of the wrong type; a predicate's or
    ///   expression's evaluation error; ``ContextError/Code/validation``; a store's error.
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        try execute(request, author: nil, contextName: nil)
    }

    /// Inserts the objects `request` gives, in one save of their store.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownEntity``,
    ///   ``ContextError/Code/abstractEntity``, ``ContextError/Code/unknownKey`` naming a key
    ///   that is not an attribute, ``ContextError/Code/wrongType``,
    ///   ``ContextError/Code/validation``; a store's error.
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        try execute(request, author: nil, contextName: nil)
    }

    func execute(_ request: BatchDeleteRequest, author: String?, contextName: String?) throws -> BatchResult {
        let entity = request.entityName ?? request.objectIDs?.first?.entityName ?? ""
        return try observing(operation(.batchDelete, on: entity)) { outcome in
            let result = try deleting(request, author: author, contextName: contextName)
            outcome.deleted = result.actedCount
            return result
        }
    }

    func execute(_ request: BatchUpdateRequest, author: String?, contextName: String?) throws -> BatchResult {
        try observing(operation(.batchUpdate, on: request.entityName)) { outcome in
            let result = try updating(request, author: author, contextName: contextName)
            outcome.updated = result.actedCount
            return result
        }
    }

    func execute(_ request: BatchInsertRequest, author: String?, contextName: String?) throws -> BatchResult {
        try observing(operation(.batchInsert, on: request.entityName)) { outcome in
            let result = try inserting(request, author: author, contextName: contextName)
            outcome.inserted = result.actedCount
            return result
        }
    }

    private func deleting(_ request: BatchDeleteRequest, author: String?, contextName: String?) throws -> BatchResult {
        if let result = try deleteInStore(request, author: author, contextName: contextName) { return result }
        return try inBatchContext(author: author, name: contextName, type: request.resultType) { context in
            let ids: [ObjectID]
            if let given = request.objectIDs {
                // An ID given twice is one object deleted once, as the stores count it.
                ids = Array(OrderedSet(given))
            } else {
                var fetch = FetchRequest<ManagedObject>(entityName: request.entityName ?? "")
                fetch.predicate = request.predicate
                fetch.includesSubentities = request.includesSubentities
                ids = try context.fetchObjectIDs(fetch)
            }
            let objects = try ids.map { try context.existingObject(with: $0) }
            for object in objects { try context.delete(object) }
            return objects
        }
    }

    private func updating(_ request: BatchUpdateRequest, author: String?, contextName: String?) throws -> BatchResult {
        if let result = try updateInStore(request, author: author, contextName: contextName) { return result }
        return try inBatchContext(author: author, name: contextName, type: request.resultType) { context in
            let entity = try context.entitySchema(named: request.entityName)
            for key in request.propertiesToUpdate.keys.sorted() where entity.attributesByName[key] == nil {
                throw ContextError(
                    code: .unknownKey,
                    message: "A batch update of '\(request.entityName)' sets '\(key)', which is not an attribute of "
                        + "the entity; batch updates set attributes only.")
            }
            var fetch = FetchRequest<ManagedObject>(entityName: request.entityName)
            fetch.predicate = request.predicate
            fetch.includesSubentities = request.includesSubentities
            fetch.returnsObjectsAsFaults = false
            let objects = Array(try context.fetch(fetch))
            let updates = request.propertiesToUpdate.sorted { $0.key < $1.key }
            for object in objects {
                // Every expression sees the object as it was, as SQL's UPDATE does.
                let values = try updates.map { key, expression in (key, try expression.value(with: object)) }
                for (key, value) in values { try object.setValue(value, forKey: key) }
            }
            return objects
        }
    }

    private func inserting(_ request: BatchInsertRequest, author: String?, contextName: String?) throws -> BatchResult {
        try inBatchContext(
            author: author, name: contextName, type: request.resultType, mergePolicy: .mergeByPropertyObjectTrump
        ) { context in
            let entity = try context.entitySchema(named: request.entityName)
            var objects: [ManagedObject] = []
            func insert(_ values: [String: AttributeValue]) throws {
                let object = try context.insertNewObject(forEntityName: request.entityName)
                for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                    guard entity.attributesByName[key] != nil else {
                        throw ContextError(
                            code: .unknownKey,
                            message:
                                "Object \(objects.count) of a batch insert of '\(request.entityName)' sets '\(key)', "
                                + "which is not an attribute of the entity; batch inserts set attributes only.")
                    }
                    try object.setValue(value, forKey: key)
                }
                objects.append(object)
            }
            if let handler = request.dictionaryHandler {
                while true {
                    var values: [String: AttributeValue] = [:]
                    if handler(&values) { break }
                    try insert(values)
                }
            } else {
                for values in request.objects { try insert(values) }
            }
            return objects
        }
    }

    /// Runs `body` in a new context of the coordinator, saves it, and reports what it did:
    /// the objects `body` returns that the save wrote, with their saved IDs, and the save's
    /// changes.
    private func inBatchContext(
        author: String?, name: String?, type: BatchResultType, mergePolicy: MergePolicy = .error,
        _ body: (ManagedObjectContext) throws -> [ManagedObject]
    ) throws -> BatchResult {
        let context = ManagedObjectContext(coordinator: self, name: name)
        return try context.performAndWait {
            context.transactionAuthor = author
            context.mergePolicy = mergePolicy
            context.stalenessInterval = 0
            var saved = ContextNotification(kind: .didSave, contextName: name)
            context.addObserver(for: .didSave) { saved = $0.notification }
            let acted = try body(context)
            try context.save()
            // A new object merged into another by a uniqueness constraint was never saved.
            let written = saved.insertedObjectIDs.union(saved.updatedObjectIDs).union(saved.deletedObjectIDs)
            return BatchResult(type, acted: acted.map(\.objectID).filter(written.contains), changes: saved)
        }
    }
}
