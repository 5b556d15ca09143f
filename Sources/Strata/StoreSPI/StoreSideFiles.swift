import Foundation

/// The files a store keeps beside its own (SQLite's `-wal`, `-shm` and `-journal`, LMDB's
/// `-lock`, a whole-file store's `.lock`, the save log), which libraries open and write by name.
/// A symbolic link in the place of one would make them write, truncate or remove the file it
/// points to, so it is refused before anything opens it.
package enum StoreSideFiles {
    /// Checks that none of `paths` is a symbolic link (missing files are fine).
    ///
    /// - Parameter storeName: names the store, for the error.
    /// - Throws: ``StoreError`` with code `corrupt` naming the first link.
    package static func checkNotLinked(_ paths: [String], storeName: @autoclosure () -> String) throws {
        for path in paths {
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { continue }
            throw StoreError(
                code: .corrupt,
                message: "'\(path)', where \(storeName()) keeps a file of its own, is a symbolic link; nothing was "
                    + "opened through it. Remove the link to open the store.")
        }
    }
}
