/// A batch deletion a store may carry out itself, in one write transaction, without the core
/// loading the objects. The core hands it only to a store declaring
/// ``StoreCapabilities/batchOperations``, and only when the deletion is one a context's save
/// would accept as the store applies it: the store evaluates the predicate itself, and no
/// object the nullify rules change would break a validation rule by it (every inverse
/// relationship they empty is optional, without a minimum count).
///
/// The store applies the delete rules of every object it deletes, as a context does:
/// - *cascade* deletes the destinations too, through chains and cycles;
/// - *nullify* removes the object from the inverse relationship of each destination left,
///   whose version grows by one;
/// - *deny* refuses the whole deletion while a destination would be left;
/// - *no action* leaves the destinations alone.
public struct StoreBatchDelete: Sendable, Hashable {
    /// Which objects the deletion starts from.
    public enum Target: Sendable, Hashable {
        /// The objects of `entityName` (and of its sub-entities when `includesSubentities`)
        /// that meet `predicate`; every one of them when it is `nil`.
        case matching(entityName: String, includesSubentities: Bool, predicate: FetchPredicate?)
        /// These objects, all of this store. One the store does not hold fails the deletion
        /// with ``StoreError/Code/unknownObject`` naming it.
        case objects([ObjectID])
    }

    /// Which objects the deletion starts from.
    public var target: Target
    /// Whether the result lists the objects deleted and changed. When `false`, the store may
    /// give only ``StoreBatchDeleteResult/matchedCount`` (the core then forgets every cached
    /// snapshot of the store), so that deleting every object of an entity reads none of them.
    public var listsObjectIDs: Bool
    /// The transaction a store recording persistent history records the deletion as: a
    /// deletion (with its tombstone) per deleted object and an update per object the nullify
    /// rules changed, listing the relationships they emptied. A store that records history but
    /// cannot record this returns `nil`.
    public var history: StoreChangeSet.HistoryInfo?

    /// Creates a deletion.
    public init(_ target: Target, listsObjectIDs: Bool = true, history: StoreChangeSet.HistoryInfo? = nil) {
        self.target = target
        self.listsObjectIDs = listsObjectIDs
        self.history = history
    }
}

/// What a store's batch deletion did, or the deny rules that refused it.
public struct StoreBatchDeleteResult: Sendable, Hashable {
    /// A deny rule that refused the deletion: `objectID`'s `relationship` still holds
    /// `destination` (and `remainingCount - 1` more objects) that the deletion would leave.
    public struct Denial: Sendable, Hashable {
        public var objectID: ObjectID
        public var relationship: String
        public var destination: ObjectID
        public var remainingCount: Int

        /// Creates a denial.
        public init(objectID: ObjectID, relationship: String, destination: ObjectID, remainingCount: Int) {
            self.objectID = objectID
            self.relationship = relationship
            self.destination = destination
            self.remainingCount = remainingCount
        }
    }

    /// How many objects the target named or matched.
    public var matchedCount: Int
    /// The objects the target named or matched, all deleted; empty when the deletion does not
    /// list them.
    public var matched: [ObjectID]
    /// Every deleted object: the matched ones and those the cascade rules reached; empty when
    /// the deletion does not list them.
    public var deleted: [ObjectID]
    /// The objects left whose relationships the nullify rules emptied of deleted objects;
    /// empty when the deletion does not list them.
    public var updated: [ObjectID]
    /// The deny rules that refused the deletion; when there is any, nothing was written and the
    /// other lists are empty.
    public var denials: [Denial]

    /// A deletion that was carried out and lists its objects.
    public init(matched: [ObjectID], deleted: [ObjectID], updated: [ObjectID]) {
        self.init(matchedCount: matched.count, matched: matched, deleted: deleted, updated: updated)
    }

    /// A deletion that was carried out, with whatever lists it keeps.
    public init(matchedCount: Int, matched: [ObjectID] = [], deleted: [ObjectID] = [], updated: [ObjectID] = []) {
        self.matchedCount = matchedCount
        self.matched = matched
        self.deleted = deleted
        self.updated = updated
        denials = []
    }

    /// A deletion the deny rules refused: nothing was written.
    public init(denials: [Denial]) {
        matchedCount = 0
        matched = []
        deleted = []
        updated = []
        self.denials = denials
    }
}
