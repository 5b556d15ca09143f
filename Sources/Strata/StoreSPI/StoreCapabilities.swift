/// What a store can do beyond the obligations every store has, as reports and tools show it.
/// The conformance suite skips the checks that need a second process unless the store declares
/// ``multiProcessAccess``, and the query-generation checks unless it declares
/// ``queryGenerations``. A capability is added with the first store that has it and the
/// first code or check that reads it.
public struct StoreCapabilities: OptionSet, Sendable, Hashable {
    /// The capabilities as bits.
    public let rawValue: UInt32
    /// Creates capabilities from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Several processes may open the store's file at once.
    public static let multiProcessAccess = StoreCapabilities(rawValue: 1 << 5)
    /// The store opens read views pinned to one saved state (``IncrementalStore/openGeneration()``),
    /// so that a context pinned to a query generation reads it as it was, whatever is saved since.
    public static let queryGenerations = StoreCapabilities(rawValue: 1 << 1)
    /// The store records every save in a persistent history when it is opened with
    /// ``StoreOptions/tracksPersistentHistory``, and answers history fetches and deletions
    /// (``IncrementalStore/historyTransactions(after:includingChanges:)``).
    public static let persistentHistory = StoreCapabilities(rawValue: 1 << 2)
    /// The store carries out batch updates itself, without the core loading the objects
    /// (``IncrementalStore/executeBatchUpdate(_:)``); others go through the core's context.
    public static let batchOperations = StoreCapabilities(rawValue: 1 << 3)
    /// With ``batchOperations``: the store's batch updates also compute values
    /// (``StoreBatchUpdate/expressions``); without it, only updates of constants reach the store.
    public static let batchComputedValues = StoreCapabilities(rawValue: 1 << 8)
    /// The store keeps large values of attributes allowing external binary storage
    /// (``AttributeDescription/allowsExternalBinaryDataStorage``) out of the objects' rows or
    /// records: a file store in files beside its own, written before the save that refers to
    /// them commits and removed with the objects; a database server in its own out-of-line
    /// storage, in the save's transaction (PostgreSQL's TOAST tables).
    public static let externalBinaryStorage = StoreCapabilities(rawValue: 1 << 9)
    /// The store was opened trading durability for speed: a crash of the process loses
    /// nothing, a crash of the system may lose its last saves. The coordinator logs a warning
    /// when it adds such a store.
    public static let relaxedDurability = StoreCapabilities(rawValue: 1 << 7)
    /// The store keeps relationships that lead out of its configuration to objects of another
    /// store: a to-one value or a to-many member whose ID names another store is saved with
    /// that store's identifier and handed back unchanged, and predicates compare it as any
    /// other ID. The context lets a save relate objects across two stores only when both
    /// declare it. See docs/CROSS-STORE-RELATIONSHIPS.md.
    public static let crossStoreRelationships = StoreCapabilities(rawValue: 1 << 10)
}
