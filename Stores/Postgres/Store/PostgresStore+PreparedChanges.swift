import Logging
@_spi(StoreAuthoring) import Strata

/// The store's part of a save across stores that a save log decides: written in a prepared
/// transaction (`PREPARE TRANSACTION`), committed (`COMMIT PREPARED`) or rolled back
/// (`ROLLBACK PREPARED`) once the coordinator has decided the save (docs/STRIPED-SAVES.md).
extension PostgresStore: PreparingStore {
    package var preparesChanges: Bool { true }
    package var keepsPreparedChanges: Bool { true }

    /// The longest name of a prepared transaction the server keeps, in bytes.
    static let longestPreparedName = 199

    /// Locks the rows of updated and deleted objects, checks their versions and the uniqueness
    /// constraints, writes the changes and prepares the transaction as `name`.
    ///
    /// - Throws: ``StoreError/Code/unsupported`` naming `max_prepared_transactions` when the
    ///   server allows no prepared transactions, or when `name` is too long for one; what a
    ///   save throws. Nothing is kept when it throws.
    package func prepare(_ changes: StoreChangeSet, named name: String) throws -> any PreparedChanges {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(storeName) was opened read-only.")
        }
        guard name.utf8.count <= Self.longestPreparedName else {
            throw StoreError(
                code: .unsupported,
                message: "\(storeName) cannot prepare its part of a save across stores as '\(name)': the name is "
                    + "longer than the \(Self.longestPreparedName) bytes PostgreSQL keeps.")
        }
        var historyNumber: Int64?
        let metadata = try withConnection { connection in
            try checkPreparedTransactionsAllowed(on: connection)
            return try connection.preparedTransaction(named: name) {
                try write(changes, note: { historyNumber = $0 }, notifying: false, on: connection)
            }
        }
        return PreparedPostgresChanges(store: self, name: name, historyNumber: historyNumber, metadata: metadata)
    }

    package func preparedChangeNames() throws -> [String] {
        let prefix = PreparedChangesName.prefix(store: identifier)
        return try withConnection { connection in
            let rows = try connection.execute(
                "SELECT gid FROM pg_prepared_xacts WHERE database = current_database() "
                    + "AND left(gid, length($1)) = $1 ORDER BY prepared",
                [.text(prefix)])
            return (0..<rows.rowCount).compactMap { rows.bytes($0, 0).map { String(decoding: $0, as: UTF8.self) } }
        }
    }

    package func finishPreparedChanges(named name: String, commit: Bool) throws {
        try withConnection { connection in
            try connection.execute("\(commit ? "COMMIT" : "ROLLBACK") PREPARED \(try connection.quotedLiteral(name))")
            guard commit else { return }
            try history.notify(0, on: connection)
            setMetadata(try PostgresStoreDatabase.readMetadata(in: location, on: connection).metadata)
        }
    }

    /// Throws ``StoreError/Code/unsupported`` naming the setting when the server allows no
    /// prepared transactions; asks the server once.
    private func checkPreparedTransactionsAllowed(on connection: PostgresConnection) throws {
        var allowed = allowsPreparedTransactions.withLock { $0 }
        if allowed == nil {
            let rows = try connection.execute("SELECT current_setting('max_prepared_transactions')::int8")
            allowed = (rows.int64(0, 0) ?? 0) > 0
            allowsPreparedTransactions.withLock { $0 = allowed }
        }
        guard allowed == true else {
            throw StoreError(
                code: .unsupported,
                message: "\(storeName) cannot join a save across stores with a store that keeps a local file: "
                    + "the server's max_prepared_transactions is 0, so it cannot prepare its part. Set "
                    + "max_prepared_transactions (postgresql.conf) to at least the number of such saves that may "
                    + "run at once, and restart the server; nothing was written.")
        }
    }
}

/// The store's part of a save across stores, prepared on the server as `name`.
private struct PreparedPostgresChanges: PreparedChanges {
    let store: PostgresStore
    let name: String
    /// The number of the history transaction the part records, if any: noted as the store's
    /// own before it commits, and announced to listeners after.
    let historyNumber: Int64?
    /// The metadata the part writes, if any.
    let metadata: StoreMetadata?

    func commit() throws {
        if let historyNumber { store.recordedHistory.noteRecorded(historyNumber) }
        try store.withConnection { connection in
            try connection.execute("COMMIT PREPARED \(try connection.quotedLiteral(name))")
            if let metadata { store.setMetadata(metadata) }
            if let historyNumber {
                do {
                    try store.history.notify(historyNumber, on: connection)
                } catch {
                    store.logger.warning(
                        "Could not tell listeners of a committed save across stores; they hear of it at the next save",
                        metadata: ["store": "\(store.storeName)", "error": "\(error)"])
                }
            }
        }
    }

    func rollBack() {
        do {
            _ = try store.withConnection { connection in
                try connection.execute("ROLLBACK PREPARED \(try connection.quotedLiteral(name))")
            }
        } catch {
            store.logger.warning(
                "Could not roll back a prepared transaction; the next save across the same stores rolls it back",
                metadata: ["store": "\(store.storeName)", "prepared": "\(name)", "error": "\(error)"])
        }
    }
}
