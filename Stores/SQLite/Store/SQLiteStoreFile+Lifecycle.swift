import CStrataSQLite
import Foundation
import Strata

extension SQLiteStoreFile {
    /// The files of a store besides its main file.
    static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    /// Empties the store at `path` through SQLite (so that connections other processes still
    /// have open see an empty database, never a half-removed file), then removes it, its side
    /// files and its folder of external data (`.<name>_SUPPORT`). A missing file is not an
    /// error; a file that is not an SQLite database is left alone, and so is a store whose
    /// external data folders are symbolic links (``ExternalBinaryData/checkFolders()``).
    static func destroy(at path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let header = FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 16) }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw StoreError(
                code: .corrupt, message: "The file at '\(path)' is not an SQLite database; it was not destroyed.")
        }
        let externalData = ExternalBinaryData(storePath: path)
        try externalData.checkFolders()
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.checked(strata_sqlite_set_reset_database(connection.handle, 1), "reset")
            try connection.execute(script: "VACUUM")
            try connection.checked(strata_sqlite_set_reset_database(connection.handle, 0), "reset")
        } catch {
            throw storeError(error, path: path, doing: "destroying it")
        }
        for file in [path] + sideFileSuffixes.map({ path + $0 }) where FileManager.default.fileExists(atPath: file) {
            do {
                try FileManager.default.removeItem(atPath: file)
            } catch {
                throw StoreError(
                    code: .io, message: "Could not remove '\(file)' of the SQLite store.", underlying: error)
            }
        }
        try externalData.destroy()
    }

    /// Replaces the store at `destination` (creating it when missing) with a copy of the store at
    /// `source`, through SQLite's backup API: page by page under SQLite's locks, so that
    /// connections open on the destination see the old store or the new one, never a mix. The
    /// source's external data files are copied beside the destination before and after the
    /// rows; the destination's own files are left to the sweep of its next opening.
    static func replace(_ destination: String, withStoreAt source: String) throws {
        guard try readMetadata(at: source) != nil else {
            throw StoreError(code: .unknownObject, message: "There is no SQLite store at '\(source)' to copy from.")
        }
        // The source's external data files join the destination's before its rows refer to them.
        let externalData = ExternalBinaryData(storePath: destination)
        let sourceData = ExternalBinaryData(storePath: source)
        try externalData.copyFiles(of: sourceData)
        do throws(SQLiteError) {
            let from = try SQLiteConnection(path: source, mode: .readOnly)
            let to = try SQLiteConnection(path: destination, mode: .readWriteCreate)
            guard let backup = sqlite3_backup_init(to.handle, "main", from.handle, "main") else {
                throw SQLiteError(resultCode: sqlite3_errcode(to.handle), connection: to.handle, sql: "backup")
            }
            let stepped = sqlite3_backup_step(backup, -1)
            let finished = sqlite3_backup_finish(backup)
            guard stepped == SQLITE_DONE else {
                throw SQLiteError(resultCode: stepped, connection: nil, sql: "backup")
            }
            try to.checked(finished, "backup")
        } catch {
            throw storeError(error, path: destination, doing: "replacing it with '\(source)'")
        }
        // Files the source saved while the rows were copied; the destination's own files are left
        // to the sweep of its next opening, which holds the write lock.
        try externalData.copyFiles(of: sourceData)
    }
}

extension SQLiteConnection {
    /// Throws unless `resultCode` is `SQLITE_OK`.
    func checked(_ resultCode: Int32, _ action: String) throws(SQLiteError) {
        guard resultCode == SQLITE_OK else {
            throw SQLiteError(resultCode: resultCode, connection: handle, sql: action)
        }
    }
}
