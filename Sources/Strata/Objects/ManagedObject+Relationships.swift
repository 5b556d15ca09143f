import OrderedCollections

extension ManagedObject {
    /// The object the to-one relationship `key` points to, or `nil`.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey`` when `key` is not
    ///   a to-one relationship, or the error firing a fault gave.
    public func object(forKey key: String) throws -> ManagedObject? {
        _ = try relationship(key, toMany: false)
        try willAccessValues()
        guard case .objectID(let id)? = currentValue(forKey: key) else { return nil }
        return try liveContext().object(withStored: id)
    }

    /// Points the to-one relationship `key` at `target` (or empties it), updating the inverse
    /// relationship on both the old and the new destination.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey``,
    ///   ``ContextError/Code/wrongType`` (a target of another entity) or
    ///   ``ContextError/Code/wrongContext``.
    public func setObject(_ target: ManagedObject?, forKey key: String) throws {
        let relationship = try relationship(key, toMany: false)
        let context = try liveContext()
        if let target { try check(target, for: relationship, in: context) }
        try willAccessValues()
        let old = currentValue(forKey: key)?.objectIDValue
        guard old != target?.objectID else { return }
        setPrimitiveValue(target.map { .objectID($0.objectID) } ?? .null, forKey: key)
        guard let inverse = inverse(of: relationship) else { return }
        if let old { try context.object(withStored: old).detach(self, from: inverse) }
        if let target { try target.attach(self, to: inverse, forward: relationship) }
    }

    /// The members of the to-many relationship `key`, in order for an ordered relationship.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey`` when `key` is not
    ///   a to-many relationship, or the error loading it gave.
    public func objects(forKey key: String) throws -> [ManagedObject] {
        let relationship = try relationship(key, toMany: true)
        let context = try liveContext()
        return try context.members(of: self, relationship).map { try context.object(withStored: $0) }
    }

    /// Replaces the members of the to-many relationship `key`, updating inverses.
    ///
    /// - Throws: as ``setObject(_:forKey:)``.
    public func setObjects(_ targets: [ManagedObject], forKey key: String) throws {
        let relationship = try relationship(key, toMany: true)
        let context = try liveContext()
        for target in targets { try check(target, for: relationship, in: context) }
        let old = try context.members(of: self, relationship)
        let new = targets.map(\.objectID)
        guard old != new else { return }
        setMembers(.init(new), forKey: key, in: context)
        guard let inverse = inverse(of: relationship) else { return }
        let (oldSet, newSet) = (Set(old), Set(new))
        for removed in old where !newSet.contains(removed) {
            try context.object(withStored: removed).detach(self, from: inverse)
        }
        for added in targets where !oldSet.contains(added.objectID) {
            try added.attach(self, to: inverse, forward: relationship)
        }
    }

    /// Adds `target` to the to-many relationship `key` (at the end of an ordered one).
    public func addObject(_ target: ManagedObject, forKey key: String) throws {
        let members = try objects(forKey: key)
        guard !members.contains(target) else { return }
        try setObjects(members + [target], forKey: key)
    }

    /// Removes `target` from the to-many relationship `key`.
    public func removeObject(_ target: ManagedObject, forKey key: String) throws {
        let members = try objects(forKey: key)
        guard members.contains(target) else { return }
        try setObjects(members.filter { $0 !== target }, forKey: key)
    }

    /// Makes this object's `inverse` relationship point back at `source`, taking this object away
    /// from whatever `source`-like object held it through a to-one inverse before.
    func attach(_ source: ManagedObject, to inverse: RelationshipDescription, forward: RelationshipDescription) throws {
        let context = try liveContext()
        if inverse.isToMany {
            if context.defersChanges(toMembersOf: self, inverse) {
                addPendingMember(source.objectID, forKey: inverse.name)
                context.noteChange(of: self)
                return
            }
            var members = OrderedSet(try context.members(of: self, inverse))
            guard members.append(source.objectID).inserted else { return }
            setMembers(members, forKey: inverse.name, in: context)
            return
        }
        try willAccessValues()
        let previous = currentValue(forKey: inverse.name)?.objectIDValue
        guard previous != source.objectID else { return }
        if let previous { try context.object(withStored: previous).detach(self, from: forward) }
        setPrimitiveValue(.objectID(source.objectID), forKey: inverse.name)
    }

    /// Removes `source` from this object's `inverse` relationship.
    func detach(_ source: ManagedObject, from inverse: RelationshipDescription) throws {
        let context = try liveContext()
        if inverse.isToMany {
            if context.defersChanges(toMembersOf: self, inverse) {
                removePendingMember(source.objectID, forKey: inverse.name)
                context.noteChange(of: self)
                return
            }
            var members = try context.members(of: self, inverse)
            guard let index = members.firstIndex(of: source.objectID) else { return }
            members.remove(at: index)
            setMembers(.init(members), forKey: inverse.name, in: context)
            return
        }
        try willAccessValues()
        if currentValue(forKey: inverse.name)?.objectIDValue == source.objectID {
            setPrimitiveValue(.null, forKey: inverse.name)
        }
    }

    /// Replaces the members of the to-many relationship `key`, noting the change with `context`.
    private func setMembers(_ members: OrderedSet<ObjectID>, forKey key: String, in context: ManagedObjectContext) {
        let old = currentMembers[key]
        setCurrentMembers(members, forKey: key)
        context.undoManager?.recordMembers(of: self, key: key, from: old ?? [], to: members)
        context.noteChange(of: self)
    }

    func relationship(_ key: String, toMany: Bool) throws -> RelationshipDescription {
        guard let relationship = entity.relationshipsByName[key], relationship.isToMany == toMany else {
            throw unknownKey(key, expected: toMany ? "to-many relationship" : "to-one relationship")
        }
        return relationship
    }

    func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let name = relationship.inverseName else { return nil }
        return managedObjectContext?.schema.entitiesByName[relationship.destinationEntityName]?
            .relationshipsByName[name]
    }

    private func check(
        _ target: ManagedObject, for relationship: RelationshipDescription, in context: ManagedObjectContext
    ) throws {
        guard target.managedObjectContext === context else {
            throw ContextError(
                code: .wrongContext,
                message:
                    "Cannot relate \(objectID) to \(target.objectID) through '\(entity.name).\(relationship.name)': "
                    + "the objects belong to different contexts.")
        }
        guard target.entity.isKind(of: relationship.destinationEntityName) else {
            throw ContextError(
                code: .wrongType,
                message: "'\(entity.name).\(relationship.name)' holds \(relationship.destinationEntityName) objects, "
                    + "not \(target.entity.name).")
        }
    }
}
