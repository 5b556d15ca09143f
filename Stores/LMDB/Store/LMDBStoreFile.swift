import CStrataLMDB
import Foundation
import Strata

/// Opening, creating and inspecting the file of an LMDB store.
enum LMDBStoreFile {
    /// The side file liblmdb keeps beside the data file: the reader table and writer mutex.
    static let lockSuffix = "-lock"

    /// Opens the store `request` asks for, creating its file and databases when there is none.
    /// A file that fails the page check, an LMDB environment without Strata's metadata, a
    /// newer layout version or another model is refused; a refused file is left as it was,
    /// and a `-lock` file the attempt created is removed.
    static func open(_ request: StoreOpenRequest, options typed: LMDBStoreOptions? = nil) throws -> LMDBStore {
        guard let url = request.url else { throw StoreError(code: .io, message: "An LMDB store needs a file URL.") }
        try request.model.freeze()
        let path = url.path
        let settings = try LMDBStoreSettings(typed, settings: request.options)
        let readOnly = request.options.isReadOnly
        try StoreSideFiles.checkNotLinked(
            [path + lockSuffix, path + LMDBVerificationRecord.suffix], storeName: "the LMDB store at '\(path)'")
        let (check, passed) = try verifyExistingFile(at: path, verification: settings.verification)
        let exists = check != .absent
        let created = !FileManager.default.fileExists(atPath: path)
        if !exists && readOnly {
            throw StoreError(code: .io, message: "There is no LMDB store at '\(path)' to open read-only.")
        }
        return try cleaningUp(path: path, created: created) {
            let environment = try LMDBEnvironmentRegistry.environment(
                path: path, writes: !readOnly, readOnly: readOnly && !FileManager.default.isWritableFile(atPath: path),
                relaxedDurability: settings.relaxedDurability,
                mapSize: exists ? nil : settings.initialMapSize)
            let (layout, databases, metadata) = try LMDBStoreFile.prepare(environment, for: request)
            let (indexes, needsRebuild) = try LMDBStore.indexes(for: request, in: environment, meta: databases.meta)
            let store = LMDBStore(
                request: request, environment: environment, layout: layout, databases: databases, indexes: indexes,
                metadata: metadata)
            if needsRebuild { try store.rebuildIndexes() }
            // Housekeeping: orphans a failed sweep leaves take space and are never read.
            _ = try? store.removeOrphanedExternalData()
            // The file passed, and the store opened: the next opening may skip the check while
            // the file stays as it is (the opening itself may have written it, and then it will not).
            if !readOnly { passed?.keep(forFileAt: path) }
            return store
        }
    }

    /// The metadata of the store at `path`; `nil` when there is no file.
    static func readMetadata(at path: String) throws -> StoreMetadata? {
        try readMeta(at: path) { transaction, meta in try readMetadata(in: transaction, meta, path: path) }
    }

    /// The layout version of the store at `path`; `nil` when there is no file.
    static func readFormatVersion(at path: String) throws -> UInt32? {
        try readMeta(at: path) { transaction, meta in try checkFormat(in: transaction, meta, path: path) }
    }

    /// What `body` reads from the meta database of the store at `path`, once its layout version
    /// is known to be one this build reads; `nil` when there is no file.
    private static func readMeta<T>(at path: String, _ body: (LMDBTransaction, MDB_dbi) throws -> T) throws -> T? {
        guard try checkExistingFile(at: path) else { return nil }
        return try cleaningUp(path: path, created: false) {
            let environment = try LMDBEnvironmentRegistry.environment(
                path: path, writes: false, readOnly: !FileManager.default.isWritableFile(atPath: path),
                relaxedDurability: nil, mapSize: nil)
            // A writer killed inside its commit leaves the commit on disk but unknown to readers
            // until the next writer takes the write lock, when liblmdb publishes it: take the
            // lock, so that what is read is the newest commit (a save across stores decides
            // from it whether the store has a logged save).
            if !environment.isReadOnly { try environment.write { _ in } }
            return try environment.read(keepingDatabases: true) { transaction in
                let meta = try metaDatabase(in: transaction, path: path)
                try checkFormat(in: transaction, meta, path: path)
                try checkMetaKeys(in: transaction, meta, path: path)
                return try body(transaction, meta)
            }
        }
    }

    /// Replaces the metadata of the store at `path` in one write transaction.
    static func writeMetadata(_ metadata: StoreMetadata, at path: String) throws {
        guard try checkExistingFile(at: path) else {
            throw StoreError(code: .unknownObject, message: "There is no LMDB store at '\(path)' to write metadata to.")
        }
        try cleaningUp(path: path, created: false) {
            let environment = try LMDBEnvironmentRegistry.environment(
                path: path, writes: true, readOnly: false, relaxedDurability: nil, mapSize: nil)
            let meta = try environment.read(keepingDatabases: true) { transaction in
                let meta = try metaDatabase(in: transaction, path: path)
                try checkFormat(in: transaction, meta, path: path)
                return meta
            }
            try environment.write { try writeMetadata(metadata, in: $0, meta) }
        }
    }

    /// Removes the store's data file, its `-lock` file and its folder of external data
    /// (`.<file name>_SUPPORT`); a missing file is not an error. A store whose external data
    /// folders are symbolic links is left alone (``ExternalBinaryData/checkFolders()``).
    static func destroy(at path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw StoreError(code: .io, message: "'\(path)' is a folder, not an LMDB store; it was not destroyed.")
        }
        let externalData = ExternalBinaryData(storePath: path, keepingExtension: true)
        try externalData.checkFolders()
        for file in [path, path + lockSuffix, path + LMDBVerificationRecord.suffix]
        where FileManager.default.fileExists(atPath: file) {
            do {
                try FileManager.default.removeItem(atPath: file)
            } catch {
                throw StoreError(code: .io, message: "Could not remove '\(file)' of the LMDB store.", underlying: error)
            }
        }
        try externalData.destroy()
    }

    /// Whether a data file with content exists at `path` (an empty file is a new store, as
    /// liblmdb treats it); when it does, its pages are checked first, as `verification` says.
    static func checkExistingFile(at path: String, verification: LMDBVerification = .whenChanged) throws -> Bool {
        try verifyExistingFile(at: path, verification: verification).check != .absent
    }

    /// What ``verifyExistingFile(at:verification:)`` found and did.
    enum FileCheck: Equatable {
        /// No data file, or an empty one: a new store.
        case absent
        /// Every page was checked, and passed.
        case checked
        /// The file matches the record of its last check: not checked again.
        case unchangedSinceCheck
        /// Not checked: the verification setting is `never`.
        case notChecked
    }

    /// Checks the data file at `path` as `verification` says. Returns what it did, and for a
    /// file whose pages passed and that no writer changed during the check, the record to keep
    /// beside it once the store has opened: a refused file leaves its folder as it was.
    ///
    /// - Throws: `corrupt` when a page fails the check; `io` when `path` is a folder.
    static func verifyExistingFile(
        at path: String, verification: LMDBVerification
    ) throws -> (check: FileCheck, passed: LMDBVerificationRecord?) {
        var status = stat()
        guard stat(path, &status) == 0 else { return (.absent, nil) }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw StoreError(code: .io, message: "'\(path)' is a folder, not an LMDB store.")
        }
        guard status.st_size > 0 else { return (.absent, nil) }
        let before = LMDBVerificationRecord.current(path: path)
        switch verification {
        case .never: return (.notChecked, nil)
        case .whenChanged where before != nil && LMDBVerificationRecord.kept(forFileAt: path) == before:
            return (.unchangedSinceCheck, nil)
        case .always, .whenChanged: break
        }
        var previous: UInt64?
        for attempt in 0..<5 {
            do {
                try LMDBFileCheck.check(path: path)
                return (.checked, before.flatMap { LMDBVerificationRecord.current(path: path) == $0 ? $0 : nil })
            } catch let error as StoreError where error.code == .corrupt {
                // A writer in another process may have committed while the pages were read:
                // check again as long as the newest transaction keeps changing.
                let newest = try? LMDBFileCheck.newestTransaction(path: path)
                guard attempt < 4, let newest, newest != previous else { throw error }
                previous = newest
            }
        }
        return (.checked, nil)
    }

    /// Runs `body`; when it fails, removes the `-lock` file it created and, when `created`,
    /// the data file, so that a refused or failed open leaves the folder as it was.
    static func cleaningUp<T>(path: String, created: Bool, _ body: () throws -> T) throws -> T {
        let lockPath = path + lockSuffix
        let lockExisted = FileManager.default.fileExists(atPath: lockPath)
        do {
            return try body()
        } catch {
            if !lockExisted { try? FileManager.default.removeItem(atPath: lockPath) }
            if created { try? FileManager.default.removeItem(atPath: path) }
            if let error = error as? LMDBError { throw storeError(error, path: path, doing: "opening it") }
            throw error
        }
    }

    /// `error` as a `StoreError` naming the store at `path`.
    static func storeError(_ error: LMDBError, path: String, doing action: String) -> StoreError {
        let message = "The LMDB store at '\(path)' failed \(action): \(error)."
        if error.isCorruption { return StoreError(code: .corrupt, message: message, underlying: error) }
        switch error.code {
        case EACCES, EPERM, EROFS:
            return StoreError(
                code: .io, message: message + " The location is not writable or readable.", underlying: error)
        default: return StoreError(code: .io, message: message, underlying: error)
        }
    }
}
