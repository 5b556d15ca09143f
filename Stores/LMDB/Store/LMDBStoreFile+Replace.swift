import CStrataLMDB
import Foundation
import Strata

extension LMDBStoreFile {
    /// Replaces the contents of the store at `destination` (creating it when missing) with a
    /// copy of the store at `source`: in one write transaction on the destination, every named
    /// database is emptied and every key of the source's databases, read in one read
    /// transaction, copied in. Readers of the destination, in this process or another, see the
    /// old store or the new one, never a mix. Replacing a store with itself changes nothing. The
    /// source's external data files are copied beside the destination before and after its
    /// records; the destination's own are left to the sweep of its next opening.
    static func replace(_ destination: String, withStoreAt source: String) throws {
        guard try readMetadata(at: source) != nil else {
            throw StoreError(code: .unknownObject, message: "There is no LMDB store at '\(source)' to copy from.")
        }
        let exists = try checkExistingFile(at: destination)
        let created = !FileManager.default.fileExists(atPath: destination)
        try cleaningUp(path: destination, created: created) {
            let from = try LMDBEnvironmentRegistry.environment(
                path: source, writes: false, readOnly: !FileManager.default.isWritableFile(atPath: source),
                relaxedDurability: nil, mapSize: nil)
            let to = try LMDBEnvironmentRegistry.environment(
                path: destination, writes: true, readOnly: false, relaxedDurability: nil,
                mapSize: exists ? nil : from.mapSize)
            guard from !== to else { return }
            let externalData = ExternalBinaryData(storePath: destination, keepingExtension: true)
            let sourceData = ExternalBinaryData(storePath: source, keepingExtension: true)
            try externalData.copyFiles(of: sourceData)
            try from.read { reading in
                try to.write { writing in try copy(from: reading, to: writing) }
            }
            try externalData.copyFiles(of: sourceData)
        }
    }

    /// Empties every named database of `writing`, then copies each named database of `reading`.
    private static func copy(from reading: LMDBTransaction, to writing: LMDBTransaction) throws {
        for name in try databaseNames(in: writing) {
            guard let database = try writing.openDatabase(name, create: false) else { continue }
            try LMDBError.check(mdb_drop(writing.handle, database, 0), "mdb_drop(\(name))")
        }
        for name in try databaseNames(in: reading) {
            guard let source = try reading.openDatabase(name, create: false),
                let target = try writing.openDatabase(name, create: true)
            else { continue }
            try reading.scan(source, from: []) { key, value in
                try writing.put(target, Array(key), Array(value))
                return true
            }
        }
    }

    /// The names of the named databases: the keys of liblmdb's main database.
    private static func databaseNames(in transaction: LMDBTransaction) throws -> [String] {
        var names: [String] = []
        try transaction.scan(LMDBTransaction.mainDatabase, from: []) { key, _ in
            names.append(String(decoding: key, as: UTF8.self))
            return true
        }
        return names
    }
}
