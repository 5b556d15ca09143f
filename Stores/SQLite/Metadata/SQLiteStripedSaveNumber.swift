import Strata

/// The number of the last save across stores an SQLite store applied (the user key
/// ``PersistentStoreCoordinator/stripedSaveKey``), kept in a table of its own beside
/// `Z_METADATA`, so that a save across stores writes one row instead of re-encoding the whole
/// metadata property list (docs/SQLITE.md). The property list never holds the key once the
/// table does; a file written before keeps it there until its next metadata write.
enum SQLiteStripedSaveNumber {
    /// Strata's table for the number: one row, `Z_VERSION` 1 as in `Z_METADATA`, and the number
    /// in `Z_NUMBER`. Core Data ignores it.
    static let table = "Z_STRATASTRIPEDSAVE"

    /// `metadata`'s user keys without the number, and the number, when it is one.
    static func split(_ metadata: StoreMetadata) -> (listed: StoreMetadata, number: Int64?) {
        var listed = metadata
        guard case .integer64(let number)? = metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] else {
            return (metadata, nil)
        }
        listed.userInfo[PersistentStoreCoordinator.stripedSaveKey] = nil
        return (listed, number)
    }

    /// The number the table holds on `connection`, when it holds one.
    ///
    /// - Throws: `StoreError` with code `corrupt` naming the store at `path` when the number is
    ///   not a whole number.
    static func read(on connection: SQLiteConnection, path: String) throws -> Int64? {
        guard try exists(on: connection) else { return nil }
        let rows = try connection.statement("SELECT Z_NUMBER FROM \(table) WHERE Z_VERSION = 1").rows {
            $0.value(at: 0)
        }
        switch rows.first {
        case nil: return nil
        case .integer(let number)?: return number
        case let stored?:
            throw StoreError(
                code: .corrupt,
                message: "The SQLite store at '\(path)' holds \(stored) as the number of its last save across stores "
                    + "(\(table).Z_NUMBER), which is not a whole number; the store is damaged.")
        }
    }

    /// Makes the table hold `number`, or nothing when it is `nil`, inside the caller's
    /// transaction.
    static func write(_ number: Int64?, on connection: SQLiteConnection) throws {
        guard let number else {
            if try exists(on: connection) { try connection.execute(script: "DELETE FROM \(table)") }
            return
        }
        try connection.cachedStatement(
            "CREATE TABLE IF NOT EXISTS \(table) (Z_VERSION INTEGER PRIMARY KEY, Z_NUMBER INTEGER NOT NULL)"
        ).execute()
        try connection.cachedStatement("INSERT OR REPLACE INTO \(table) (Z_VERSION, Z_NUMBER) VALUES (1, ?)")
            .execute([.integer(number)])
    }

    private static func exists(on connection: SQLiteConnection) throws -> Bool {
        try !connection.cachedStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
            .rows([.text(table)]) { $0.value(at: 0) }.isEmpty
    }
}
