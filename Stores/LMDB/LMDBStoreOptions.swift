import Strata

/// How Strata's LMDB store is opened, as ``Strata/StoreType/lmdb(_:)`` and
/// ``Strata/PersistentStoreDescription/lmdb(at:configuration:options:)`` take it. An option
/// left `nil` comes from the store's string settings, as a store opened by name reads them
/// (`mapSize` in bytes, `relaxedDurability` `true` or `false`, `verification` `always`,
/// `whenChanged` or `never`), or else its default.
public struct LMDBStoreOptions: Sendable, Hashable {
    /// The map's size in bytes when the file is created: by default 1 MiB; rounded up to
    /// 64 KiB, at most 1 TiB. The map grows by doubling whenever it fills.
    public var mapSize: Int?
    /// Whether commits skip flushing to disk: a crash of the process loses nothing, a crash of
    /// the system may lose the last commits (`StoreCapabilities/relaxedDurability`). By
    /// default `false`.
    public var relaxedDurability: Bool?
    /// When the whole data file is checked before liblmdb maps it; by default
    /// ``LMDBVerification/whenChanged``.
    public var verification: LMDBVerification?

    /// Creates options; `nil` keeps the default.
    public init(mapSize: Int? = nil, relaxedDurability: Bool? = nil, verification: LMDBVerification? = nil) {
        self.mapSize = mapSize
        self.relaxedDurability = relaxedDurability
        self.verification = verification
    }
}

/// When an LMDB store checks every page of its data file before liblmdb maps it. liblmdb
/// trusts its pages, so a damaged file it maps can stop the process; the check makes such a
/// file `corrupt` instead, at the cost of reading the whole file (docs/LMDB.md).
public enum LMDBVerification: String, Sendable, Hashable, CaseIterable {
    /// At every opening.
    case always
    /// At an opening that finds the file changed since the last check Strata recorded beside it
    /// (`<file>-verified`: its device, inode, size, modification and change times, and a
    /// checksum of its meta pages), and always for a file with no such record, such as one
    /// copied, restored or written by another program. The default.
    case whenChanged
    /// Never: for files only this application writes, where opening must cost nothing. A
    /// damaged file can then stop the process inside liblmdb.
    case never
}
