import Strata

extension SQLiteStore {
    /// Confirms that the row of `objectID`, which a search by primary key did not find, is not
    /// in its table under its entity, by reading the whole table; throws `corrupt` when the
    /// row is there after all. A damaged table b-tree (a primary key out of order) hides rows
    /// from searches, and SQLite does not notice it short of `PRAGMA integrity_check`: without
    /// this, a damaged file would read as one whose objects were deleted. The scan runs only on
    /// paths that are errors anyway (an owner whose members cannot be loaded), not for
    /// ``snapshot(for:)``, whose `nil` answers deletions other processes make, often many.
    func confirmMissing(_ objectID: ObjectID, on connection: SQLiteConnection) throws {
        guard case .integer(let key) = objectID.reference, objectID.storeIdentifier == identifier,
            let table = layout.tableOfEntity[objectID.entityName]
        else { return }
        let sql = "SELECT Z_PK, Z_ENT FROM \(table.name) NOT INDEXED WHERE +Z_PK = ?"
        let found = try connection.cachedStatement(sql).rows([.integer(key)]) { ($0.value(at: 0), $0.value(at: 1)) }
        guard try found.contains(where: { try self.objectID(primaryKey: $0.0, entityNumber: $0.1) == objectID }) else {
            return
        }
        throw StoreError(
            code: .corrupt,
            message: "\(storeName) is damaged: its table \(table.name) holds the row of \(objectID), which a search "
                + "by primary key does not find. PRAGMA integrity_check tells more.")
    }

    /// The error for `objectID`, which a search by primary key did not find: `unknownObject`,
    /// or `corrupt` when the row is in its table after all (``confirmMissing(_:on:)``).
    func missingObjectError(_ objectID: ObjectID, on connection: SQLiteConnection) throws -> StoreError {
        try confirmMissing(objectID, on: connection)
        return StoreError(code: .unknownObject, message: "\(storeName) has no object \(objectID).")
    }
}
