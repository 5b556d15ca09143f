import Strata

/// The settings an LMDB store reads from ``StoreOptions/settings``.
struct LMDBStoreSettings {
    /// The map's size in bytes when the store's file is created.
    let initialMapSize: Int
    /// Whether commits skip flushing to disk.
    let relaxedDurability: Bool

    /// The default initial map: 1 MiB, grown by doubling whenever it fills.
    static let defaultMapSize = 1 << 20

    /// Reads `mapSize` (bytes, rounded up to 64 KiB, at least 64 KiB) and `relaxedDurability`
    /// (`true` or `false`).
    init(_ options: StoreOptions) {
        let requested = options.settings["mapSize"].flatMap { Int($0) } ?? Self.defaultMapSize
        let granule = 1 << 16
        initialMapSize = max(granule, (min(requested, 1 << 40) + granule - 1) / granule * granule)
        relaxedDurability = options.settings["relaxedDurability"] == "true"
    }
}
