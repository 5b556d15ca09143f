/// What a store can do beyond the obligations every store has. The coordinator and the
/// conformance suite consult it: an optional feature a store lacks falls back (an unpinned
/// read, for one) or fails with a ``StoreError/Code/unsupported`` error, never silently.
public struct StoreCapabilities: OptionSet, Sendable, Hashable {
    /// The capabilities as bits.
    public let rawValue: UInt32
    /// Creates capabilities from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Reads can be pinned to a query generation.
    public static let queryGenerations = StoreCapabilities(rawValue: 1 << 0)
    /// Saves can be recorded as persistent history.
    public static let persistentHistory = StoreCapabilities(rawValue: 1 << 1)
    /// Batch insert, update and delete run inside the store.
    public static let batchOperations = StoreCapabilities(rawValue: 1 << 2)
    /// R-tree fetch indexes are built.
    public static let rTreeIndexes = StoreCapabilities(rawValue: 1 << 3)
    /// Several reads run at once.
    public static let concurrentReaders = StoreCapabilities(rawValue: 1 << 4)
    /// Several processes may open the store's file at once.
    public static let multiProcessAccess = StoreCapabilities(rawValue: 1 << 5)
    /// Properties can be exported to a full-text index.
    public static let fullTextSearch = StoreCapabilities(rawValue: 1 << 6)
    /// Durability can be traded for speed (an option; durable by default).
    public static let relaxedDurability = StoreCapabilities(rawValue: 1 << 7)
    /// Large binary values can live outside the main file.
    public static let externalBinaryStorage = StoreCapabilities(rawValue: 1 << 8)
}
