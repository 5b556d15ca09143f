import Foundation
import Strata

extension StoreType {
    /// Strata's LMDB store type (``LMDBStore``): one data file and its `-lock` file. Reading and
    /// writing metadata opens the file's environment without opening the store; destroying a
    /// store removes both files; replacing one copies the source's databases into the
    /// destination in one write transaction.
    public static let lmdb = StoreType(
        name: LMDBStore.storeTypeName, open: { try LMDBStoreFile.open($0) },
        readMetadata: { try LMDBStoreFile.readMetadata(at: $0.path) },
        writeMetadata: { try LMDBStoreFile.writeMetadata($0, at: $1.path) },
        destroy: { try LMDBStoreFile.destroy(at: $0.path) },
        replace: { destination, source in try LMDBStoreFile.replace(destination.path, withStoreAt: source.path) })
}
