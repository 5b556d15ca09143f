import Foundation
import Strata

extension StoreType {
    /// Strata's SQLite store type (``SQLiteStore``), in Core Data's SQLite layout. Destroying a
    /// store empties it through SQLite before removing its file and its `-wal` and `-shm` files;
    /// replacing one copies the source with SQLite's backup API.
    public static let sqlite = StoreType(
        name: SQLiteStore.storeTypeName, open: { try SQLiteStoreFile.open($0) },
        readMetadata: { try SQLiteStoreFile.readMetadata(at: $0.path) },
        writeMetadata: { try SQLiteStoreFile.writeMetadata($0, at: $1.path) },
        destroy: { try SQLiteStoreFile.destroy(at: $0.path) },
        replace: { destination, source in try SQLiteStoreFile.replace(destination.path, withStoreAt: source.path) })
}
