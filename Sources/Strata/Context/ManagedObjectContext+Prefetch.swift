extension ManagedObjectContext {
    /// Loads the destinations of each relationship key path (`"author"`, `"books.publisher"`)
    /// for the objects `objectIDs` name: to-many memberships and the destinations' snapshots, so
    /// that following the relationships later costs no store read.
    ///
    /// - Throws: ``ContextError/Code/unknownKey`` for a component that is not a relationship;
    ///   a store's error.
    func prefetch(_ keyPaths: [String], from objectIDs: [ObjectID]) throws {
        for keyPath in keyPaths {
            var level = objectIDs.map { object(with: $0) }
            for key in keyPath.split(separator: ".").map(String.init) {
                var relationships: [RelationshipDescription] = []
                for object in level {
                    guard let relationship = object.entity.relationshipsByName[key] else {
                        throw object.unknownKey(key, expected: "relationship")
                    }
                    try fulfill(object)
                    relationships.append(relationship)
                }
                try loadMembers(key, of: level)
                var next: [ObjectID] = []
                for (object, relationship) in zip(level, relationships) {
                    if relationship.isToMany {
                        next += try members(of: object, relationship)
                    } else if let target = object.currentValue(forKey: key)?.objectIDValue {
                        next.append(target)
                    }
                }
                prefetchSnapshots(for: next)
                level = try next.map { try object(withStored: $0) }
            }
        }
    }

    /// Loads the members of the to-many relationship `key` of those of `objects` that have it
    /// and have not loaded it yet: one ``StoreReading/relatedObjectIDs(ofEach:relationship:)``
    /// call per store. Returns the members it loaded.
    @discardableResult
    func loadMembers(_ key: String, of objects: [ManagedObject]) throws -> [ObjectID] {
        let unloaded = objects.filter { object in
            object.entity.relationshipsByName[key]?.isToMany == true && object.currentMembers[key] == nil
                && !object.objectID.isTemporary && !object.isInaccessible
        }
        var loaded: [ObjectID] = []
        for (store, ids) in router.groupedByStore(unloaded.map(\.objectID)) {
            for (id, members) in try reads(of: store).relatedObjectIDs(ofEach: ids, relationship: key) {
                guard let object = registered[id] else { continue }
                object.setLoadedMembers(members, forKey: key)
                loaded += members
            }
        }
        return loaded
    }
}
