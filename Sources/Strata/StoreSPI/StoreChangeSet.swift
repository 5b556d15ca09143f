/// The changes one save makes to one store, applied all or nothing.
///
/// Inserted objects carry permanent IDs the store handed out
/// (``IncrementalStore/permanentIDs(forEntities:)``). Updated and deleted objects carry the
/// version the saving context last saw; when the store holds another version, the save is a
/// conflict and nothing is written.
public struct StoreChangeSet: Sendable, Hashable {
    /// One object's new state.
    public struct ObjectChange: Sendable, Hashable {
        /// The object.
        public var objectID: ObjectID
        /// Every persistent attribute and to-one reference, as in ``Snapshot/values`` (the
        /// core sends them by slot: read them with ``PropertyValues/slots(for:)``).
        public var values: PropertyValues
        /// The full new membership of each to-many relationship that changed, in order for
        /// ordered relationships.
        public var toManyRelationships: [String: [ObjectID]]
        /// The version the saving context last saw; 0 for an inserted object.
        public var expectedVersion: Int64
        /// For an update, the names of the attributes and relationships that changed, which a
        /// store recording persistent history lists; `nil` when unknown (the store then lists
        /// every attribute and to-one relationship of ``values`` and every to-many of
        /// ``toManyRelationships``). The other keys of ``values`` hold what the store holds at
        /// ``expectedVersion``, so a store may write only these (the PostgreSQL store does, and
        /// updates rows given the same change in one statement); with `nil` it writes every key.
        public var changedKeys: Set<String>?

        /// Creates a change.
        public init(
            objectID: ObjectID, values: PropertyValues, toManyRelationships: [String: [ObjectID]] = [:],
            expectedVersion: Int64, changedKeys: Set<String>? = nil
        ) {
            self.objectID = objectID
            self.values = values
            self.toManyRelationships = toManyRelationships
            self.expectedVersion = expectedVersion
            self.changedKeys = changedKeys
        }

        /// Creates a change from values by name.
        public init(
            objectID: ObjectID, values: [String: AttributeValue], toManyRelationships: [String: [ObjectID]] = [:],
            expectedVersion: Int64, changedKeys: Set<String>? = nil
        ) {
            self.init(
                objectID: objectID, values: PropertyValues(values), toManyRelationships: toManyRelationships,
                expectedVersion: expectedVersion, changedKeys: changedKeys)
        }
    }

    /// One object to delete, with the version the saving context last saw.
    public struct Deletion: Sendable, Hashable {
        /// The object.
        public var objectID: ObjectID
        /// The version the saving context last saw.
        public var expectedVersion: Int64

        /// Creates a deletion.
        public init(objectID: ObjectID, expectedVersion: Int64) {
            self.objectID = objectID
            self.expectedVersion = expectedVersion
        }
    }

    /// New objects (``ObjectChange/expectedVersion`` 0).
    public var inserted: [ObjectChange]
    /// Changed objects.
    public var updated: [ObjectChange]
    /// Deleted objects.
    public var deleted: [Deletion]
    /// The store's new user metadata keys (``StoreMetadata/userInfo``), saved in the same
    /// all-or-nothing step as the object changes; `nil` leaves them as they are.
    public var userInfo: [String: AttributeValue]?
    /// Who saves, for a store that records its saves in its persistent history; `nil` records
    /// a save made now by this process, with no author or context name.
    public var history: HistoryInfo?

    /// Creates a change set.
    public init(
        inserted: [ObjectChange] = [], updated: [ObjectChange] = [], deleted: [Deletion] = [],
        userInfo: [String: AttributeValue]? = nil, history: HistoryInfo? = nil
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.userInfo = userInfo
        self.history = history
    }

    /// Whether the change set changes objects, which a store recording persistent history
    /// records as one transaction (a save of user keys alone is not recorded).
    public var changesObjects: Bool { !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) }

    /// Whether the change set changes nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && userInfo == nil }
}
