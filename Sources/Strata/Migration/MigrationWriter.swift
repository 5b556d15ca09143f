/// The saving half of a migration: validates the converted objects against the destination
/// model (those a mapping changed; a copied object is saved as its source store held it) and
/// saves them into the destination as inserts.
///
/// An object is saved only once its to-many members are: a store may keep a membership on the
/// member's record (SQLite keeps an ordered to-many's positions there), which must exist when
/// the owner's insert writes it. Such an object waits, with the place of its last member in
/// the copying order, until the batch holding that member is added.
struct MigrationWriter {
    let destination: any IncrementalStore
    let schema: ModelSchema
    /// The entities the destination holds.
    let entityNames: Set<String>
    /// Whether each batch is saved when it is added; otherwise ``finish()`` saves everything.
    let savesInBatches: Bool
    /// How many objects have been added so far.
    private(set) var added = 0
    private var unsaved: [StoreChangeSet.ObjectChange] = []
    private var waiting: [MigrationObjectConverter.Converted] = []
    private var hasSaved = false

    init(destination: any IncrementalStore, schema: ModelSchema, entityNames: Set<String>, savesInBatches: Bool) {
        self.destination = destination
        self.schema = schema
        self.entityNames = entityNames
        self.savesInBatches = savesInBatches
    }

    /// Adds converted objects, those of the copying order up to (not including) place `end`,
    /// validating them first when `validating` (which converts values to their attribute's
    /// type), and saves those whose members are all added.
    mutating func add(_ objects: [MigrationObjectConverter.Converted], through end: Int, validating: Bool) throws {
        var objects = objects
        if validating {
            var changes = StoreChangeSet(inserted: objects.map(\.change))
            try changes.validate(
                schema: schema, entityNames: entityNames, storeIdentifier: destination.identifier,
                storeName: "The migration's destination")
            for index in objects.indices { objects[index].change = changes.inserted[index] }
        }
        for object in objects {
            if object.lastMember < end { unsaved.append(object.change) } else { waiting.append(object) }
        }
        unsaved += waiting.filter { $0.lastMember < end }.map(\.change)
        waiting.removeAll { $0.lastMember < end }
        added += objects.count
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
}
