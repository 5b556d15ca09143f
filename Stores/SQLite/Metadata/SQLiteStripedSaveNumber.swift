import Strata

/// The number of the last save across stores an SQLite store applied (the user key
/// ``PersistentStoreCoordinator/stripedSaveKey``), kept in a table of its own beside
/// `Z_METADATA`, so that a save across stores writes one row instead of re-encoding the whole
/// metadata property list (docs/SQLITE.md). The property list never holds the key once the
/// table does; a file written before keeps it there until its next metadata write.
enum SQLiteStripedSaveNumber {
    /// Strata's table for the number: one row, one integer column. Core Data ignores it.
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
    static func read(on connection: SQLiteConnection) throws -> Int64? {
        guard try exists(on: connection) else { return nil }
        let rows = try connection.statement("SELECT Z_NUMBER FROM \(table)").rows { $0.value(at: 0) }
        guard case .integer(let number)? = rows.first else { return nil }
        return number
    }

    /// Makes the table hold `number`, or nothing when it is `nil`, inside the caller's
    /// transaction.
    static func write(_ number: Int64?, on connection: SQLiteConnection) throws {
        guard let number else {
            if try exists(on: connection) { try connection.execute(script: "DELETE FROM \(table)") }
            return
        }
        try connection.cachedStatement("CREATE TABLE IF NOT EXISTS \(table) (Z_NUMBER INTEGER NOT NULL)").execute()
        try connection.cachedStatement("DELETE FROM \(table)").execute()
        try connection.cachedStatement("INSERT INTO \(table) (Z_NUMBER) VALUES (?)").execute([.integer(number)])
    }

    private static func exists(on connection: SQLiteConnection) throws -> Bool {
        try !connection.cachedStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
            .rows([.text(table)]) { $0.value(at: 0) }.isEmpty
    }
}
