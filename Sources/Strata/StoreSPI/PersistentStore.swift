import Foundation

/// Options a store is opened with.
public struct StoreOptions: Sendable, Hashable {
    /// Whether saves are refused with ``StoreError/Code/readOnly``.
    public var isReadOnly: Bool
    /// Store-specific settings by name, documented by each store type.
    public var settings: [String: String]
    /// Whether the store records every save in its persistent history (docs/HISTORY.md), as
    /// Core Data's `NSPersistentHistoryTrackingKey` asks; a store type without
    /// ``StoreCapabilities/persistentHistory`` refuses to open with it.
    public var tracksPersistentHistory: Bool
    /// Whether the coordinator watches the store for saves made by other coordinators and
    /// processes and announces them (``PersistentStoreCoordinator/remoteChanges``), as Core
    /// Data's `NSPersistentStoreRemoteChangeNotificationPostOptionKey` asks. It needs
    /// ``tracksPersistentHistory``.
    public var postsRemoteChangeNotifications: Bool

    /// Creates options.
    public init(
        isReadOnly: Bool = false, settings: [String: String] = [:], tracksPersistentHistory: Bool = false,
        postsRemoteChangeNotifications: Bool = false
    ) {
        self.isReadOnly = isReadOnly
        self.settings = settings
        self.tracksPersistentHistory = tracksPersistentHistory
        self.postsRemoteChangeNotifications = postsRemoteChangeNotifications
    }
}

/// What every store is: a typed, identified holder of one configuration's objects.
///
/// Obligations of a store author, with the conformance checks that enforce them (docs/STORES.md
/// lists every obligation as one checklist):
/// - ``identifier`` is the store's UUID string, equal to ``StoreMetadata/storeIdentifier``
///   of ``metadata``, stable for the life of the file: a new store takes
///   ``StoreOpenRequest/identifierForNewStore`` (migration passes the old store's, so that the
///   copy keeps it); an existing one keeps its own. Checks: `A.metadataNamesTypeAndUUID`,
///   `A.uuidStableAcrossReopen`, `O.roundTripThroughTheInMemoryStore`.
/// - ``metadata`` is readable at any time and reflects the last saved state. Checks:
///   `A.userKeysLive`, `A.userKeysAfterReopen`, `A.metadataHoldsVersionHashes`.
/// - ``capabilities`` declares only what the store really does; anything else must fail with
///   ``StoreError/Code/unsupported`` or fall back as documented, never answer wrongly. Checks:
///   `A.secondWriterRefused`, `J.twoOpeningsOfOneFileConflict` (``StoreCapabilities/multiProcessAccess``).
/// - ``willAttach()`` takes what the store holds only while a coordinator has it (a lock on its
///   file, refusing a second writer with ``StoreError/Code/inUse``); ``close()`` lets it go and
///   leaves nothing beside the file. Checks: `A.secondWriterRefused`.
/// - A store is `Sendable` and safe to call from several threads; it guards its own state.
///   Checks: `K.readersSeeWholeSaves`, `K.concurrentInsertsAllKept`, `K.concurrentUpdatesNeverLost`.
///
/// A store must implement ``configurationName``, ``options`` and ``metadata``; the others have
/// defaults: ``typeName`` and ``identifier`` read the metadata, a store has no ``url`` and no
/// ``capabilities``, and ``willAttach()`` and ``close()`` do nothing.
public protocol PersistentStore: AnyObject, Sendable {
    /// The store's type name, as registered with a coordinator (for example `"SQLite"`).
    var typeName: String { get }
    /// The store's UUID string.
    var identifier: String { get }
    /// The store's file, if it has one.
    var url: URL? { get }
    /// The model configuration whose entities the store holds; `nil` for every entity.
    var configurationName: String? { get }
    /// The options the store was opened with.
    var options: StoreOptions { get }
    /// What the store can do beyond the obligations every store has.
    var capabilities: StoreCapabilities { get }
    /// The store's metadata as last saved.
    var metadata: StoreMetadata { get }

    /// The store is about to be added to a coordinator; throwing keeps it out. A store that
    /// holds something only while it is in use (a lock on its file) takes it here, again if it
    /// was closed before. The default does nothing.
    func willAttach() throws

    /// The store was removed from a coordinator, swapped for its migrated copy, or its
    /// coordinator went away: it lets go of its lock and connections, so that nothing is left
    /// beside its file (an SQLite store's `-wal` and `-shm`). It may be added again, and then
    /// opens what it needs anew. Called once for each ``willAttach()`` that succeeded; the
    /// default does nothing.
    func close()
}

extension PersistentStore {
    /// The type named in the store's metadata, which is the store's type name.
    public var typeName: String { metadata.storeType }

    /// The identifier in the store's metadata, which is the store's identifier.
    public var identifier: String { metadata.storeIdentifier }

    /// No file: `nil`.
    public var url: URL? { nil }

    /// Nothing beyond the obligations every store has.
    public var capabilities: StoreCapabilities { [] }

    /// Does nothing: the store holds nothing that needs taking before it is used.
    public func willAttach() throws {}

    /// Does nothing: the store holds nothing that needs letting go.
    public func close() {}

    /// How messages name the store: its type and its file, or its identifier.
    package var nameInMessages: String {
        url.map { "The \(typeName) store at '\($0.nameInMessages)'" } ?? "The \(typeName) store \(identifier)"
    }
}

/// A store that answers fetches, per-object loads and saves one request at a time: the
/// interface the coordinator talks to.
///
/// Obligations of a store author, with the conformance checks that enforce them:
/// - ``StoreReading/execute(_:)`` returns exactly the objects of the entity (and its
///   sub-entities when the request includes them) that match the predicate, sorted, offset and
///   limited as asked (a limit of 0 is no limit), in the result type asked; a count is the number of IDs the
///   same fetch returns. The coordinator sends only predicates whose
///   ``FetchPredicate/requiredFeatures`` are within ``predicateFeatures``; it evaluates the
///   others itself on snapshots it fetches without a predicate. Checks: `E.*`, `F.*`, `G.*`,
///   `H.*`, `R.*`, `P.unknownEntityInFetch`.
/// - ``StoreReading/snapshot(for:)`` returns the last saved state of an object, or `nil` when
///   the store no longer has it (never an error for a deleted object). Checks: `B.deletedSnapshotIsNil`,
///   `C.*`, `D.toOneAfterReopen`.
/// - ``StoreReading/relatedObjectIDs(of:relationship:)`` returns the members of a to-many
///   relationship, in order for an ordered one. Checks: `D.toManyAfterReopen`, `D.orderedKeptAfterReopen`,
///   `P.unknownObjectInRelatedObjects`, `P.unknownRelationshipInRelatedObjects`.
/// - ``StoreReading/snapshots(for:)`` and ``StoreReading/relatedObjectIDs(ofEach:relationship:)``
///   for many objects answer as the one-object forms would for each; implementing them is optional. Checks:
///   `D.batchLoadsMatchSingleLoads`, `H.batchedFetchMatchesUnbatched`.
/// - ``permanentIDs(forEntities:)`` hands out new, never reused IDs, one per entity name, in
///   input order. Checks: `B.permanentIDsInInputOrder`, `B.deletedReferencesAreNotReused`,
///   `B.referencesUniqueAcrossHierarchy`, `P.unknownEntityInPermanentIDs`. An object
///   ``save(_:)`` inserts with an ID the store did not hand out (a save completed from a save
///   log, a migration keeping its source's numbers) keeps it, and the store never hands it out
///   afterwards. Checks: `B.idsOfAnotherOpeningAreNotReused`, `B.idsNeverHandedOutAreKept`.
/// - ``save(_:)`` applies a change set all or nothing. Every change set reaches it through
///   ``PersistentStoreCoordinator/save(_:to:)`` (but a migration's copies, made from a store's
///   own saved objects into the new store before it is added), which has already refused a read-only store
///   and validated the changes against the model (temporary or foreign IDs, unknown keys,
///   values of the wrong type, references to the wrong entity, unknown entities): the store
///   does not check them again. Inside its write transaction the store checks versions with
///   ``StoreChangeSet/checkVersions(storedVersion:)``: an update or deletion whose
///   ``StoreChangeSet/ObjectChange/expectedVersion`` differs from the stored version (or
///   names an object the store no longer has) fails with ``StoreError/Code/conflict`` listing
///   every such object, and writes nothing. It then checks the model's uniqueness constraints
///   with ``StoreChangeSet/checkUniqueness(schema:storeName:storedMatches:)``: a change set
///   that would leave two objects with the same values of a constraint's keys fails with
///   ``StoreError/Code/constraintConflict`` and writes nothing (checks `U.*`). Each saved insert gets version 1, each saved
///   update the stored version plus one. A change set's ``StoreChangeSet/userInfo``, when
///   set, replaces the user keys of ``PersistentStore/metadata`` in the same step (a change
///   set may hold nothing else: a metadata-only save). A save that returned survives the
///   process being killed; a kill during a save leaves the state before or after it. Checks:
///   `I.*`, `J.*`, `M.killDuringSaves`, `M.killDuringMetadataSaves`.
/// - ``openGeneration()`` returns a read view pinned to the last saved state when the store
///   declares ``StoreCapabilities/queryGenerations``, and `nil` when it does not (contexts
///   pinned to a generation then read the store's latest state, as documented). Checks: `Q.*`.
///
/// Beside ``PersistentStore``'s three, a store must implement five members:
/// ``StoreReading/execute(_:)``, ``StoreReading/snapshot(for:)``,
/// ``StoreReading/relatedObjectIDs(of:relationship:)``, ``permanentIDs(forEntities:)`` and
/// ``save(_:committingAfter:)`` (or, to the one-phase contract, ``save(_:)``). Everything else
/// is optional, with a default: ``predicateFeatures`` (none: the core evaluates predicates),
/// the batched reads, and the features a capability declares (generations, history, batch
/// requests, dictionary fetches, remote changes).
public protocol IncrementalStore: PersistentStore, StoreReading {
    /// The parts of predicate syntax the store evaluates itself.
    var predicateFeatures: PredicateFeatures { get }

    /// New permanent IDs, one for each entity name, in order.
    func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID]

    /// Applies `changes` all or nothing: a save to this store alone. The default is
    /// ``save(_:committingAfter:)`` with nothing to wait for, so that a store implements one
    /// of the two; a store written to the one-phase contract implements only this one.
    func save(_ changes: StoreChangeSet) throws

    /// Saves `changes` in two phases, the store's part of a save across stores: inside its
    /// write transaction the store checks versions and uniqueness constraints and writes the
    /// changes without committing them (it *prepares* them), then calls `decision`. When
    /// `decision` returns, the store commits; when it throws, the store rolls back, leaving
    /// nothing written, and rethrows. ``save(_:)`` is this with a decision that always returns.
    ///
    /// The coordinator nests the stores of a save across stores: each store's `decision`
    /// prepares the next, and the innermost records the decision in the save log
    /// (docs/STRIPED-SAVES.md). So every check runs once, inside the store's own transaction,
    /// and a conflict in any store writes nothing anywhere. A process killed before the
    /// decision leaves nothing; one killed after it leaves a save the log completes. `decision`
    /// never calls back into the store. The default throws ``StoreError/Code/unsupported``:
    /// a store that saves in one step keeps working on its own but cannot take part in a save
    /// across stores, and says so. Checks: `I.decidedSaveCommits`, `I.refusedDecisionWritesNothing`,
    /// `I.conflictNeverReachesTheDecision`, `L.routesByConfiguration`, `L.mixesWithTheInMemoryStore`.
    func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws

    /// Sets `update`'s values on the objects it matches in one write that survives a crash,
    /// adding one to each one's version, as a save of those changes would; returns how many
    /// objects it updated (and which, when the update lists them), or `nil` when the store does
    /// not carry out this update itself (the core then runs it through a context). The core
    /// calls it only when the store declares ``StoreCapabilities/batchOperations``. The default
    /// returns `nil`.
    func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchUpdateResult?

    /// Deletes the objects `delete` names or matches in one write that survives a crash,
    /// applying their relationships' delete rules as ``StoreBatchDelete`` says; returns what
    /// it deleted and changed, or the deny rules that refused it (then nothing is written), or
    /// `nil` when the store does not carry out this deletion itself (the core then runs it
    /// through a context). The core calls it only when the store declares
    /// ``StoreCapabilities/batchOperations``. The default returns `nil`.
    func executeBatchDelete(_ delete: StoreBatchDelete) throws -> StoreBatchDeleteResult?

    /// The rows of `fetch`, computed by the store as ``StoreDictionaryFetch`` says, or `nil`
    /// when the store does not answer this fetch itself (the core then computes the rows from
    /// the objects). The default returns `nil`.
    func executeDictionaryFetch(_ fetch: StoreDictionaryFetch) throws -> [[String: AttributeValue]]?

    /// A read view pinned to the store's last saved state, for a query generation; `nil` when
    /// the store has no such views (it does not declare ``StoreCapabilities/queryGenerations``).
    /// The default returns `nil`.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/generationUnavailable`` when the
    ///   store cannot hold another view now (its limit is reached), or a read error.
    func openGeneration() throws -> (any StoreGeneration)?

    /// The transactions of the store's persistent history after `bound`, oldest first, with
    /// their changes when `includingChanges`. The default throws
    /// ``StoreError/Code/unsupported``.
    func historyTransactions(after bound: StoreHistoryBound, includingChanges: Bool) throws
        -> [PersistentHistoryTransaction]

    /// Deletes the transactions of the store's persistent history up to `bound`, in one step;
    /// returns how many it deleted. Later transactions keep their tokens. The default throws
    /// ``StoreError/Code/unsupported``.
    func deleteHistory(before bound: StoreHistoryBound) throws -> Int

    /// The token of the newest transaction the store recorded, also when it was deleted since
    /// (where a reader that has seen everything stands); `nil` before the first (or when the
    /// store keeps no history). The default returns `nil`.
    func lastHistoryToken() throws -> PersistentHistoryToken?

    /// The transactions of the store's persistent history after transaction `number` that were
    /// saved by anyone but this store instance (another coordinator, in this process or
    /// another), with their changes; `nil` when nothing has written the store since the last
    /// call. The coordinator asks it every ``PersistentStoreCoordinator/remoteChangeInterval``
    /// for a store opened with ``StoreOptions/postsRemoteChangeNotifications``, so it must
    /// answer `nil` cheaply, without reading the history: from a counter of commits such as
    /// SQLite's `PRAGMA data_version` or LMDB's last transaction ID. ``RemoteHistoryWatch``
    /// does the bookkeeping. The default returns `nil`: the store announces no remote changes.
    func remoteHistory(after number: Int64) throws -> RemoteHistory?

    /// Replaces the store's whole history with `transactions` (oldest first, with their
    /// changes), keeping their numbers, timestamps and fields, in one write: what a migration
    /// that copies a store does with the source's history, so that readers' tokens stay good
    /// and the copy itself is not recorded. Later saves are numbered after the last given (from
    /// 1 when none is); change identifiers may be handed out afresh. The default throws
    /// ``StoreError/Code/unsupported``.
    ///
    /// - Throws: ``StoreError/Code/invalidChange`` when the numbers do not grow from 1 up.
    func replaceHistory(with transactions: [PersistentHistoryTransaction]) throws
}

extension IncrementalStore {
    /// No predicate syntax: the core evaluates every predicate in memory, on snapshots it
    /// fetches without one.
    public var predicateFeatures: PredicateFeatures { [] }

    /// No pinned views: a context pinned to a generation reads the store's latest state.
    public func openGeneration() throws -> (any StoreGeneration)? { nil }

    /// Carries out no batch update itself: the core runs it through a context.
    public func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchUpdateResult? { nil }

    /// Carries out no batch deletion itself: the core runs it through a context.
    public func executeBatchDelete(_ delete: StoreBatchDelete) throws -> StoreBatchDeleteResult? { nil }

    /// Answers no dictionary fetch itself: the core computes the rows from the objects.
    public func executeDictionaryFetch(_ fetch: StoreDictionaryFetch) throws -> [[String: AttributeValue]]? { nil }

    /// Throws ``StoreError/Code/unsupported``: the store keeps no history.
    public func historyTransactions(after bound: StoreHistoryBound, includingChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        throw StoreError(code: .unsupported, message: "\(nameInMessages) keeps no persistent history.")
    }

    /// Throws ``StoreError/Code/unsupported``: the store keeps no history.
    public func deleteHistory(before bound: StoreHistoryBound) throws -> Int {
        throw StoreError(code: .unsupported, message: "\(nameInMessages) keeps no persistent history.")
    }

    /// No history: `nil`.
    public func lastHistoryToken() throws -> PersistentHistoryToken? { nil }

    /// No remote changes are found: `nil`.
    public func remoteHistory(after number: Int64) throws -> RemoteHistory? { nil }

    /// Throws ``StoreError/Code/unsupported``: the store keeps no history.
    public func replaceHistory(with transactions: [PersistentHistoryTransaction]) throws {
        throw StoreError(code: .unsupported, message: "\(nameInMessages) keeps no persistent history.")
    }

    /// Saves in two phases with a decision that always returns: one transaction, committed.
    public func save(_ changes: StoreChangeSet) throws {
        try save(changes, committingAfter: {})
    }

    /// Throws ``StoreError/Code/unsupported``: the store saves in one step, so it cannot hold
    /// its part of a save across stores until the others have theirs.
    public func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
        throw StoreError(
            code: .unsupported,
            message: "\(nameInMessages) saves in one step (it implements save(_:) but not "
                + "save(_:committingAfter:)), so it cannot take part in a save across stores all or nothing. "
                + "Save its objects on their own, or give the store a two-phase save (docs/STORES.md); "
                + "nothing was written.")
    }
}
