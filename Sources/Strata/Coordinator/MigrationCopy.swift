/// The copying half of a migration: reads the source's objects a batch at a time, rewrites
/// their references to the new IDs and saves them into the destination as inserts.
///
/// An object is saved only once its to-many members are: a store may keep a membership on the
/// member's record (SQLite keeps an ordered to-many's positions there), which must exist when
/// the owner's insert writes it. Such an object waits, with the place of its last member in
/// the copying order, until the batch holding that member is copied.
struct MigrationCopy {
    /// A copied object waiting for the batch that holds the last of its to-many members.
    private struct Waiting {
        let lastMember: Int
        let change: StoreChangeSet.ObjectChange
    }

    let map: MigrationIDMap
    let source: any IncrementalStore
    let destination: any IncrementalStore
    /// How messages name the source store.
    let sourceName: String
    /// Whether each batch is saved when it is copied; otherwise ``finish()`` saves everything.
    let savesInBatches: Bool
    /// How many objects have been copied so far.
    private(set) var completed = 0
    private var unsaved: [StoreChangeSet.ObjectChange] = []
    private var waiting: [Waiting] = []
    private var hasSaved = false

    init(
        map: MigrationIDMap, source: any IncrementalStore, destination: any IncrementalStore, sourceName: String,
        savesInBatches: Bool
    ) {
        self.map = map
        self.source = source
        self.destination = destination
        self.sourceName = sourceName
        self.savesInBatches = savesInBatches
    }

    /// Copies the objects `entries` of `entity`, the copying order's objects up to (not
    /// including) place `end`, and saves those whose members are all copied.
    mutating func copy(_ entries: ArraySlice<MigrationIDMap.Entry>, of entity: EntitySchema, through end: Int) throws {
        let ids = entries.map { map.sourceID(entity.name, $0) }
        var membersByRelationship: [String: [ObjectID: [ObjectID]]] = [:]
        for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient {
            membersByRelationship[relationship.name] = try source.relatedObjectIDs(
                ofEach: ids, relationship: relationship.name)
        }
        for snapshot in try source.snapshots(for: ids) {
            let owner = snapshot.objectID
            guard let newID = map.lookUp(owner)?.newID else {
                throw StoreError(code: .corrupt, message: "\(sourceName) returned \(owner), which was not asked for.")
            }
            var values: [String: AttributeValue] = [:]
            values.reserveCapacity(snapshot.values.count)
            for (key, value) in snapshot.values {
                guard case .objectID(let id) = value else {
                    values[key] = value
                    continue
                }
                values[key] = .objectID(try remap(id, heldBy: owner, in: key).newID)
            }
            var lastMember = -1
            var members: [String: [ObjectID]] = [:]
            for (relationship, membersByOwner) in membersByRelationship {
                members[relationship] = try (membersByOwner[owner] ?? []).map { member in
                    let (newID, place) = try remap(member, heldBy: owner, in: relationship)
                    lastMember = max(lastMember, place)
                    return newID
                }
            }
            let change = StoreChangeSet.ObjectChange(
                objectID: newID, values: values, toManyRelationships: members, expectedVersion: 0)
            if lastMember < end {
                unsaved.append(change)
            } else {
                waiting.append(Waiting(lastMember: lastMember, change: change))
            }
        }
        unsaved += waiting.filter { $0.lastMember < end }.map(\.change)
        waiting.removeAll { $0.lastMember < end }
        completed += entries.count
        if savesInBatches && !unsaved.isEmpty { try save() }
    }

    /// Saves what is left (everything, for a destination not saved in batches).
    mutating func finish() throws {
        unsaved += waiting.map(\.change)
        waiting.removeAll()
        if !unsaved.isEmpty || !hasSaved { try save() }
    }

    private mutating func save() throws {
        try destination.save(StoreChangeSet(inserted: unsaved))
        unsaved.removeAll(keepingCapacity: true)
        hasSaved = true
    }

    /// The new ID of `id` and its place in the copying order: `id` itself (and no place) when
    /// it belongs to another store.
    ///
    /// - Throws: ``StoreError/Code/unknownObject`` when it is the source's but the source does
    ///   not hold it.
    private func remap(_ id: ObjectID, heldBy owner: ObjectID, in property: String) throws -> (
        newID: ObjectID, place: Int
    ) {
        guard id.storeIdentifier == source.identifier else { return (id, -1) }
        guard let found = map.lookUp(id) else {
            throw StoreError(
                code: .unknownObject,
                message: "'\(property)' of \(owner) refers to \(id), which \(sourceName) does not hold.")
        }
        return (found.newID, found.ordinal)
    }
}
