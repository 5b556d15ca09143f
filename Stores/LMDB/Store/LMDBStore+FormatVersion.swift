import Foundation
import Strata

extension LMDBStore {
    /// The version of Strata's LMDB layout the store at `url` was written in, read without
    /// opening the store.
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/io` when there is no file,
    ///   `StoreError/Code/corrupt` when it is not a Strata LMDB store, and
    ///   `StoreError/Code/unsupported` when its layout is newer than this build reads.
    static func formatVersion(ofStoreAt url: URL) throws -> UInt32 {
        guard let version = try LMDBStoreFile.readFormatVersion(at: url.path) else {
            throw StoreError(code: .io, message: "There is no LMDB store at '\(url.path)'.")
        }
        return version
    }
}
