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
                var next: [ObjectID] = []
                for object in level {
                    guard let relationship = object.entity.relationshipsByName[key] else {
                        throw object.unknownKey(key, expected: "relationship")
                    }
                    try fulfill(object)
                    if relationship.isToMany {
                        next += try members(of: object, relationship)
                    } else if let target = object.currentValues[key]?.objectIDValue {
                        next.append(target)
                    }
                }
                prefetchSnapshots(for: next)
                level = next.map { object(with: $0) }
            }
        }
    }
}
