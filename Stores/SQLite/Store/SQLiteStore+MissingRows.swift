import Strata

extension SQLiteStore {
    /// The error for `objectID`, whose row a search by primary key did not find:
    /// `unknownObject`, or `corrupt` when reading the whole table finds the row under its
    /// entity after all. A damaged table b-tree (a primary key out of order) hides rows from
    /// searches, and SQLite does not notice it short of `PRAGMA integrity_check`: without the
    /// scan, a damaged file would read as one whose objects were deleted. Only paths that fail
    /// anyway (an owner whose members cannot be loaded) ask for it, not ``snapshot(for:)``,
    /// whose `nil` answers deletions other processes make, often many.
    func missingObjectError(_ objectID: ObjectID, on connection: SQLiteConnection) throws -> StoreError {
        if case .integer(let key) = objectID.reference, objectID.storeIdentifier == identifier,
            let table = layout.tableOfEntity[objectID.entityName]
        {
            let sql = "SELECT Z_PK, Z_ENT FROM \(table.name) NOT INDEXED WHERE +Z_PK = ?"
            let found = try connection.cachedStatement(sql).rows([.integer(key)]) {
                ($0.value(at: 0), $0.value(at: 1))
            }
            if try found.contains(where: { try self.objectID(primaryKey: $0.0, entityNumber: $0.1) == objectID }) {
                return StoreError(
                    code: .corrupt,
                    message: "\(storeName) is damaged: its table \(table.name) holds the row of \(objectID), which a "
                        + "search by primary key does not find. PRAGMA integrity_check tells more.")
            }
        }
        return StoreError(code: .unknownObject, message: "\(storeName) has no object \(objectID).")
    }
}
