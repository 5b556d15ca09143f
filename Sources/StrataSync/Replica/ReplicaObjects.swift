import Strata

/// A replica's managed objects as the merge rules see them, and back: what an object shows by
/// global ID (``shown(_:)``), and making a context's objects show what the merge rules resolved
/// (``show(_:resolvedBy:in:)``).
///
/// Synced keys are an entity's stored attributes, but derived ones (each replica computes
/// them) and object-ID ones (a store's IDs mean nothing on another replica), and one side of
/// each stored relationship: the to-one side of a to-one/to-many pair, the side whose entity and
/// name sort first of a pair of the same kind, the only side of a relationship without an
/// inverse. The context keeps the other side as the inverse of the synced one, so the two never
/// merge apart. Each syncs under its renaming identifier when it has one, else its name, so a
/// rename in a later model version that keeps the first name as the renaming identifier syncs
/// with replicas before it. The order of an ordered to-many relationship syncs on its own, as
/// the positions of its members (``SyncOperation/Change/place(key:member:position:)``),
/// whichever side of the pair syncs which objects are members. Use it on the context's queue.
public struct ReplicaObjects {
    /// Which store object each global ID names.
    public private(set) var identities: SyncIdentities
    /// New objects ``show(_:resolvedBy:in:)`` inserted, bound to their permanent IDs by
    /// ``bindSavedObjects()`` once the context has saved.
    private var inserted: [(GlobalID, ManagedObject)] = []

    /// The replica's objects named by `identities`.
    public init(identities: SyncIdentities = SyncIdentities()) { self.identities = identities }

    /// The global ID of `object`, a saved object, given a new one when it has none.
    public mutating func globalID(of object: ManagedObject) -> GlobalID { identities.globalID(for: object.objectID) }

    /// What `object`, a saved object, shows: its synced values and members, with objects named
    /// by global ID (objects not named yet get one).
    public mutating func shown(_ object: ManagedObject) throws -> ResolvedObject {
        var values: [String: SyncValue] = [:]
        for attribute in object.entity.attributes where Self.syncs(attribute) {
            values[SyncKeys.key(of: attribute)] = .attribute(try object.value(forKey: attribute.name))
        }
        var relationships: [String: Set<GlobalID>] = [:]
        var orders: [String: [GlobalID]] = [:]
        for relationship in object.entity.relationships {
            let synced = Self.syncs(relationship, of: object)
            guard synced || Self.syncsOrder(of: relationship) else { continue }
            let key = SyncKeys.key(of: relationship)
            if relationship.isToMany {
                let members = try object.objects(forKey: relationship.name).map {
                    identities.globalID(for: $0.objectID)
                }
                if synced { relationships[key] = Set(members) }
                if Self.syncsOrder(of: relationship) && !members.isEmpty { orders[key] = members }
            } else {
                let target = try object.object(forKey: relationship.name)
                values[key] = .reference(target.map { identities.globalID(for: $0.objectID) })
            }
        }
        return ResolvedObject(entity: object.entity.name, values: values, relationships: relationships, orders: orders)
    }

    /// Makes `context` show what `state` resolves of `objects`: inserts the objects it lacks,
    /// sets the values and members of all and puts the members of their ordered relationships
    /// (and of those they joined) in order, then deletes those resolved as gone — last, so
    /// that what moved from an object onto another (the objects of a uniqueness group,
    /// ``MergeState/uniquenessGroup(of:)``) has moved before delete rules see it. Before an
    /// object is deleted, the objects that `state` keeps are taken out of its cascade and deny
    /// relationships, so a pulled deletion deletes only what the merge rules delete, and a deny
    /// rule never refuses it. Objects of entities the local model lacks (a newer
    /// replica's) and of sync's own entities are skipped, as are keys the local model lacks;
    /// references to objects the replica does not have are left empty, but an object whose
    /// required to-one relationship names one waits, as it is, until it arrives — and so does
    /// the deletion of an object whose cascade or deny rule reaches a waiting object. Save the
    /// context, then call ``bindSavedObjects()``.
    ///
    /// - Returns: The objects whose deletion waits: show them again with the waiting ones.
    /// - Throws: ``SyncError/Code/entityMismatch`` when a resolved object's entity is not the
    ///   local object's; the context's errors.
    @discardableResult
    public mutating func show(
        _ objects: some Collection<GlobalID>, resolvedBy state: MergeState, in context: ManagedObjectContext
    ) throws -> Set<GlobalID> {
        var shown: [(ManagedObject, ResolvedObject)] = []
        var gone: [(GlobalID, ManagedObject)] = []
        let schema = context.coordinator.schema
        var resolvedObjects: [GlobalID: ResolvedObject?] = [:]
        for id in objects {
            let resolved = state.resolved(id)
            if let resolved, schema.entitiesByName[resolved.entity] == nil || SyncModel.isSyncEntity(resolved.entity) {
                continue
            }
            resolvedObjects[id] = resolved
        }
        let waiting = try objectsWaitingForRequiredObjects(resolvedObjects, rules: state.rules, in: context)
        for (id, resolved) in resolvedObjects.sorted(by: { $0.key < $1.key }) where !waiting.contains(id) {
            let local = try existingObject(id, in: context)
            guard let resolved else {
                if let local { gone.append((id, local)) }
                continue
            }
            if let local {
                guard local.entity.name == resolved.entity else {
                    throw SyncError(
                        code: .entityMismatch,
                        message: "\(id) is resolved as a '\(resolved.entity)' but is a '\(local.entity.name)' here.")
                }
                shown.append((local, resolved))
            } else {
                let created = try context.insertNewObject(forEntityName: resolved.entity)
                identities.bind(id, to: created.objectID)
                inserted.append((id, created))
                shown.append((created, resolved))
            }
        }
        var joined: [ObjectIdentifier: ManagedObject] = [:]
        for (object, resolved) in shown { try update(object, to: resolved, in: context, joining: &joined) }
        for (object, resolved) in shown {
            joined[ObjectIdentifier(object)] = nil
            try arrange(object, in: resolved.orders)
        }
        for object in joined.values where !object.isDeleted {
            guard let id = identities.existingGlobalID(for: object.objectID), let resolved = state.resolved(id) else {
                continue
            }
            try arrange(object, in: resolved.orders)
        }
        var postponed = Set<GlobalID>()
        for (id, object) in gone {
            guard try detachKeptObjects(from: object, keptBy: state, unlessWaiting: waiting) else {
                postponed.insert(id)
                continue
            }
            try context.delete(object)
        }
        return postponed
    }

    /// The objects of `resolved` whose required to-one relationships name objects the store
    /// neither holds nor gets in this show: they wait, as they are, until those arrive, since a
    /// store cannot save them without.
    private func objectsWaitingForRequiredObjects(
        _ resolved: [GlobalID: ResolvedObject?], rules: MergeRules, in context: ManagedObjectContext
    ) throws -> Set<GlobalID> {
        guard !rules.requiredReferences.isEmpty else { return [] }
        var waiting = Set<GlobalID>()
        var settled = false
        while !settled {
            settled = true
            for (id, object) in resolved where !waiting.contains(id) {
                guard let object else { continue }
                for key in rules.requiredReferences[object.entity] ?? [] {
                    guard case .reference(let target?)? = object.values[key] else { continue }
                    if let arriving = resolved[target] {
                        if arriving != nil && !waiting.contains(target) { continue }
                    } else if try existingObject(target, in: context) != nil {
                        continue
                    }
                    waiting.insert(id)
                    settled = false
                    break
                }
            }
        }
        return waiting
    }

    /// Takes out of `object`'s cascade and deny relationships the objects `state` keeps, so
    /// that deleting `object` neither deletes them nor is refused for them; answers `false`,
    /// taking out nothing, when one of them is among `waiting` (it still names `object`, and
    /// cannot be without it until what it waits for arrives).
    private func detachKeptObjects(
        from object: ManagedObject, keptBy state: MergeState, unlessWaiting waiting: Set<GlobalID>
    ) throws -> Bool {
        var keptIDs: [ObjectID: GlobalID] = [:]
        func kept(_ destination: ManagedObject) -> Bool {
            guard !destination.isDeleted, let id = identities.existingGlobalID(for: destination.objectID),
                state.resolved(id) != nil
            else { return false }
            keptIDs[destination.objectID] = id
            return true
        }
        let rules = object.entity.relationships.filter { $0.deleteRule == .cascade || $0.deleteRule == .deny }
        var reached: [(RelationshipDescription, [ManagedObject])] = []
        for relationship in rules {
            let destinations =
                relationship.isToMany
                ? try object.objects(forKey: relationship.name)
                : [try object.object(forKey: relationship.name)].compactMap { $0 }
            reached.append((relationship, destinations))
        }
        let keptObjects = reached.flatMap { $0.1.filter(kept) }
        guard !keptObjects.contains(where: { keptIDs[$0.objectID].map(waiting.contains) ?? false }) else {
            return false
        }
        for (relationship, destinations) in reached where destinations.contains(where: { keptIDs[$0.objectID] != nil })
        {
            if relationship.isToMany {
                try object.setObjects(destinations.filter { keptIDs[$0.objectID] == nil }, forKey: relationship.name)
            } else {
                try object.setObject(nil, forKey: relationship.name)
            }
        }
        return true
    }

    /// Sets `key` of the object `id` names to `value` in `context`, as the application would;
    /// answers whether the replica holds the object (and the one a reference names) and its model
    /// has the key.
    ///
    /// - Throws: the context's error for a value the key cannot hold.
    public mutating func write(
        _ value: SyncValue, forKey key: String, of id: GlobalID, in context: ManagedObjectContext
    ) throws -> Bool {
        guard let object = try existingObject(id, in: context),
            SyncKeys.attribute(key, in: object.entity) != nil || SyncKeys.relationship(key, in: object.entity) != nil
        else { return false }
        if case .reference(let target?) = value, try existingObject(target, in: context) == nil { return false }
        var joined: [ObjectIdentifier: ManagedObject] = [:]
        try update(
            object, to: ResolvedObject(entity: object.entity.name, values: [key: value]), in: context,
            joining: &joined)
        return true
    }

    /// Binds the objects ``show(_:resolvedBy:in:)`` inserted to the permanent IDs their save gave them.
    public mutating func bindSavedObjects() {
        for (id, object) in inserted { identities.bind(id, to: object.objectID) }
        inserted.removeAll()
    }

    /// The context's object for `id`, unless the replica has none or it is deleted.
    private func existingObject(_ id: GlobalID, in context: ManagedObjectContext) throws -> ManagedObject? {
        guard let objectID = identities.objectID(for: id) else { return nil }
        let object: ManagedObject
        if let registered = context.registeredObject(for: objectID) {
            object = registered
        } else {
            do {
                object = try context.existingObject(with: objectID)
            } catch let error as ContextError where error.code == .objectNotFound {
                return nil
            }
        }
        return object.isDeleted ? nil : object
    }

    /// Sets `object`'s values and members to `resolved`'s, noting in `joined` the objects whose
    /// ordered relationships it joins as their inverse sets it (to arrange them afterwards).
    private func update(
        _ object: ManagedObject, to resolved: ResolvedObject, in context: ManagedObjectContext,
        joining joined: inout [ObjectIdentifier: ManagedObject]
    ) throws {
        func join(_ destination: ManagedObject, through relationship: RelationshipDescription) {
            if let inverse = relationship.inverseName,
                destination.entity.relationshipsByName[inverse].map(Self.syncsOrder(of:)) == true
            {
                joined[ObjectIdentifier(destination)] = destination
            }
        }
        for (key, value) in resolved.values {
            switch value {
            case .attribute(let attributeValue):
                guard let attribute = SyncKeys.attribute(key, in: object.entity), Self.syncs(attribute) else {
                    continue
                }
                if try object.value(forKey: attribute.name) != attributeValue {
                    try object.setValue(attributeValue, forKey: attribute.name)
                }
            case .reference(let target):
                guard let relationship = SyncKeys.relationship(key, in: object.entity), !relationship.isToMany,
                    Self.syncs(relationship, of: object)
                else { continue }
                let destination = try target.flatMap { try existingObject($0, in: context) }
                if try object.object(forKey: relationship.name) !== destination {
                    try object.setObject(destination, forKey: relationship.name)
                    if let destination { join(destination, through: relationship) }
                }
            }
        }
        for (key, members) in resolved.relationships {
            guard let relationship = SyncKeys.relationship(key, in: object.entity), relationship.isToMany,
                Self.syncs(relationship, of: object)
            else { continue }
            let destinations = try members.sorted().compactMap { try existingObject($0, in: context) }
            let current = Set(try object.objects(forKey: relationship.name).map(ObjectIdentifier.init))
            if current != Set(destinations.map(ObjectIdentifier.init)) {
                try object.setObjects(destinations, forKey: relationship.name)
                for destination in destinations where !current.contains(ObjectIdentifier(destination)) {
                    join(destination, through: relationship)
                }
            }
        }
    }

    /// Puts the members of `object`'s ordered relationships in the order `orders` gives:
    /// members placed by their places, then the others by global ID.
    private func arrange(_ object: ManagedObject, in orders: [String: [GlobalID]]) throws {
        for relationship in object.entity.relationships where Self.syncsOrder(of: relationship) {
            let members = try object.objects(forKey: relationship.name)
            guard members.count > 1 else { continue }
            let places = Dictionary(
                (orders[SyncKeys.key(of: relationship)] ?? []).enumerated().map { ($1, $0) },
                uniquingKeysWith: { first, _ in first })
            let ranked = members.map { member in
                let id = identities.existingGlobalID(for: member.objectID)
                return (place: id.flatMap { places[$0] } ?? Int.max, id: id, member: member)
            }
            let arranged = ranked.sorted { first, second in
                if first.place != second.place { return first.place < second.place }
                switch (first.id, second.id) {
                case (let one?, let other?): return one < other
                case (.some, nil): return true
                default: return false
                }
            }.map(\.member)
            if !zip(arranged, members).allSatisfy(===) {
                try object.setObjects(arranged, forKey: relationship.name)
            }
        }
    }

    /// Whether the order of `relationship`'s members syncs: it is an ordered to-many
    /// relationship, whichever side of its pair says which objects are members.
    private static func syncsOrder(of relationship: RelationshipDescription) -> Bool {
        relationship.isToMany && relationship.isOrdered && !relationship.isTransient
    }

    private static func syncs(_ attribute: AttributeDescription) -> Bool {
        !attribute.isTransient && attribute.derivationExpression == nil && attribute.type != .objectID
    }

    /// Whether `relationship` of `object`'s entity is the synced side of its pair.
    private static func syncs(_ relationship: RelationshipDescription, of object: ManagedObject) -> Bool {
        guard let schema = object.managedObjectContext?.coordinator.schema else { return !relationship.isTransient }
        return syncs(relationship, in: schema)
    }

    /// Whether `relationship` is the synced side of its pair in `schema`.
    static func syncs(_ relationship: RelationshipDescription, in schema: ModelSchema) -> Bool {
        guard !relationship.isTransient else { return false }
        guard let inverseName = relationship.inverseName,
            let inverse = schema.entitiesByName[relationship.destinationEntityName]?.relationshipsByName[inverseName],
            !inverse.isTransient
        else { return true }
        if relationship.isToMany != inverse.isToMany { return !relationship.isToMany }
        // Named by the entities that declare the two sides, so that sub-entities agree.
        let side = (inverse.destinationEntityName, relationship.name)
        return side <= (relationship.destinationEntityName, inverseName)
    }
}
