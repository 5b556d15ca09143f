/// An operation an ``OperationObserver`` watches: what it is, on which entity and in which
/// types of store. Every value comes from a bounded set (the model's entity names, the store
/// types registered), so that an observer can use them as metric dimensions.
public struct ObservedOperation: Sendable, Hashable {
    /// What kind of operation it is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A context's `fetch`, `fetchObjectIDs` or `fetchDictionaries`.
        case fetch
        /// A context's `count(for:)`.
        case count
        /// A context's `save()`.
        case save
        /// A `BatchInsertRequest`.
        case batchInsert = "batch-insert"
        /// A `BatchUpdateRequest`.
        case batchUpdate = "batch-update"
        /// A `BatchDeleteRequest`.
        case batchDelete = "batch-delete"
        /// A store moved to another type or location, or to another model version.
        case migration
    }

    /// What kind of operation it is.
    public let kind: Kind
    /// The entity fetched, counted or changed in batch; `nil` for saves and migrations, which
    /// touch any entity; ``unknownEntity`` for a name the model does not have.
    public let entity: String?
    /// What ``entity`` is for a request naming an entity the model does not have.
    public static let unknownEntity = "(unknown)"
    /// The types of the stores the operation reads or writes, sorted and joined by `+`
    /// (`LMDB+SQLite`); `none` when no store is involved.
    public let storeTypes: String

    /// Creates an operation.
    public init(kind: Kind, entity: String?, storeTypes: String) {
        self.kind = kind
        self.entity = entity
        self.storeTypes = storeTypes
    }

    /// The `storeTypes` of the given type names: sorted, each once, joined by `+`.
    static func storeTypes(_ names: some Sequence<String>) -> String {
        let joined = Set(names).sorted().joined(separator: "+")
        return joined.isEmpty ? "none" : joined
    }
}

/// What an operation did, filled in as it runs: how many objects it returned or wrote.
public struct ObservedOutcome: Sendable, Hashable {
    /// The objects (or rows, or the count) a fetch or count returned.
    public var objects = 0
    /// The objects a save or batch request inserted.
    public var inserted = 0
    /// The objects a save or batch request updated.
    public var updated = 0
    /// The objects a save or batch request deleted.
    public var deleted = 0

    /// An outcome with nothing done yet.
    public init() {}
}

/// Something worth counting that is not an operation of its own.
public enum ObservedEvent: Sendable, Hashable {
    /// An object's fault fired: its values were read from its store (or the row cache) because
    /// the application used them.
    case faultFired(entity: String, storeType: String)
    /// A save met `count` conflicts (other writers' newer versions, or uniqueness constraints);
    /// `retried` when the merge policy settled them and the save is tried again.
    case saveConflicts(storeTypes: String, count: Int, retried: Bool)
    /// A context merged `transactions` history transactions another coordinator or process
    /// wrote into a store.
    case remoteChangesMerged(storeType: String, transactions: Int)
    /// A store waited `seconds` for a connection of its pool, all of them being in use.
    case connectionWait(storeType: String, seconds: Double)
}
