import Strata

/// How Strata's LMDB store is opened, as ``Strata/StoreType/lmdb(_:)`` and
/// ``Strata/PersistentStoreDescription/lmdb(at:configuration:options:)`` take it. An option
/// left `nil` comes from the store's string settings, as a store opened by name reads them
/// (`mapSize` in bytes, `relaxedDurability` `true` or `false`), or else its default.
public struct LMDBStoreOptions: Sendable, Hashable {
    /// The map's size in bytes when the file is created: by default 1 MiB; rounded up to
    /// 64 KiB, at most 1 TiB. The map grows by doubling whenever it fills.
    public var mapSize: Int?
    /// Whether commits skip flushing to disk: a crash of the process loses nothing, a crash of
    /// the system may lose the last commits (`StoreCapabilities/relaxedDurability`). By
    /// default `false`.
    public var relaxedDurability: Bool?

    /// Creates options; `nil` keeps the default.
    public init(mapSize: Int? = nil, relaxedDurability: Bool? = nil) {
        self.mapSize = mapSize
        self.relaxedDurability = relaxedDurability
    }
}
