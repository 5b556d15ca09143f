import Foundation
import Strata

extension StoreType {
    /// Strata's LMDB store type: one data file and its `-lock` file, reading its options from
    /// `StoreOptions/settings` (`mapSize` in bytes, `relaxedDurability` `true` or `false`).
    /// Reading and writing metadata opens the file's environment without opening the store;
    /// destroying a store removes both files; replacing one copies the source's databases into
    /// the destination in one write transaction; a file is recognised by LMDB's first meta page.
    public static let lmdb = lmdbType(nil)

    /// The LMDB store type opening stores with `options`.
    ///
    /// ```swift
    /// try coordinator.addStore(.lmdb(at: url, options: LMDBStoreOptions(mapSize: 64 << 20)))
    /// ```
    /// Options that set nothing give ``lmdb`` itself.
    public static func lmdb(_ options: LMDBStoreOptions) -> StoreType {
        options == LMDBStoreOptions() ? lmdb : lmdbType(options)
    }

    private static func lmdbType(_ options: LMDBStoreOptions?) -> StoreType {
        StoreType(
            name: LMDBStore.storeTypeName, variant: options,
            open: { try LMDBStoreFile.open($0, options: options) },
            readMetadata: { try LMDBStoreFile.readMetadata(at: $0.path) },
            writeMetadata: { try LMDBStoreFile.writeMetadata($0, at: $1.path) },
            destroy: { try LMDBStoreFile.destroy(at: $0.path) },
            replace: { destination, source in try LMDBStoreFile.replace(destination.path, withStoreAt: source.path) },
            recognize: { prefix in
                prefix.count >= 20 && prefix[10] & lmdbMetaFlag != 0 && Array(prefix[16..<20]) == lmdbMagic
            },
            describeFormat: { url in "Strata's LMDB layout version \(try LMDBStore.formatVersion(ofStoreAt: url))" })
    }

    /// liblmdb's `MDB_MAGIC`, stored little-endian right after the first meta page's 16-byte header.
    private static let lmdbMagic: [UInt8] = [0xDE, 0xC0, 0xEF, 0xBE]
    /// liblmdb's `P_META` page flag, at byte 10 of the first page.
    private static let lmdbMetaFlag: UInt8 = 0x08
}

extension PersistentStoreDescription {
    /// A description of an LMDB store at `url` holding `configuration`, opened with `options`.
    public static func lmdb(
        at url: URL, configuration: String? = nil, options: LMDBStoreOptions = LMDBStoreOptions()
    ) -> PersistentStoreDescription {
        PersistentStoreDescription(storeType: .lmdb(options), url: url, configuration: configuration)
    }
}
