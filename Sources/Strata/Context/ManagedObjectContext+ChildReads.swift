/// What a context answers its child contexts, on its own queue: its current state, unsaved
/// changes included.
extension ManagedObjectContext {
    /// The object `objectID` names, loaded, as this context holds it; `nil` when it is deleted
    /// here, gone from its store, or a temporary ID this context does not know. A temporary ID
    /// whose object has since been saved finds the object by its permanent ID.
    func objectForChild(_ objectID: ObjectID) throws -> ManagedObject? {
        let objectID = childVersions.forwarded[objectID] ?? objectID
        let object: ManagedObject
        if let registered = registered[objectID] {
            object = registered
        } else {
            guard !objectID.isTemporary, schema.entitiesByName[objectID.entityName] != nil,
                (try? router.store(for: objectID)) != nil
            else { return nil }
            object = self.object(with: objectID)
        }
        try fulfill(object)
        return object.isDeleted ? nil : object
    }

    /// The persistent values of `objectID` as this context holds them, at its version for
    /// children; `nil` as ``objectForChild(_:)``.
    func snapshotForChild(_ objectID: ObjectID) throws -> Snapshot? {
        guard let object = try objectForChild(objectID) else { return nil }
        return Snapshot(objectID: objectID, values: object.persistentValues, version: try childVersion(of: object))
    }

    /// The members of the to-many `relationship` of `objectID` as this context holds them.
    func membersForChild(of objectID: ObjectID, relationship name: String) throws -> [ObjectID] {
        guard let object = try objectForChild(objectID) else { return [] }
        guard let relationship = object.entity.relationshipsByName[name], relationship.isToMany else {
            throw object.unknownKey(name, expected: "to-many relationship")
        }
        let members = try members(of: object, relationship)
        _ = try childVersion(of: object)
        childVersions.entries[object.objectID]?.members[name] = members
        return members
    }

    /// Answers a child's fetch as this context's own fetch would, pending changes included.
    func answerChildFetch(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        var fetch = FetchRequest<ManagedObject>(entityName: request.entityName)
        fetch.includesSubentities = request.includesSubentities
        fetch.predicate = request.predicate
        fetch.sortDescriptors = request.sortDescriptors
        fetch.fetchOffset = request.fetchOffset
        fetch.fetchLimit = request.fetchLimit
        switch request.resultType {
        case .count:
            return .count(try count(for: fetch))
        case .objectIDs:
            return .objectIDs(try matchingObjectIDs(fetch))
        case .snapshots:
            let ids = try matchingObjectIDs(fetch, keepingSnapshots: true)
            return .snapshots(try ids.compactMap { try snapshotForChild($0) })
        }
    }
}
