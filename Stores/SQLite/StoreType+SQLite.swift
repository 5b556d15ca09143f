import Foundation
import Strata

extension StoreType {
    /// Strata's SQLite store type (``SQLiteStore``), in Core Data's SQLite layout. Destroying a
    /// store removes its file and its `-wal` and `-shm` files.
    public static let sqlite = StoreType(
        name: SQLiteStore.storeTypeName, open: { try SQLiteStoreFile.open($0) },
        readMetadata: { try SQLiteStoreFile.readMetadata(at: $0.path) },
        writeMetadata: { try SQLiteStoreFile.writeMetadata($0, at: $1.path) },
        destroy: { url in
            for suffix in ["", "-wal", "-shm", "-journal"] {
                let path = url.path + suffix
                guard FileManager.default.fileExists(atPath: path) else { continue }
                do {
                    try FileManager.default.removeItem(atPath: path)
                } catch {
                    throw StoreError(
                        code: .io, message: "Could not remove '\(path)' of the SQLite store.", underlying: error)
                }
            }
        })
}
