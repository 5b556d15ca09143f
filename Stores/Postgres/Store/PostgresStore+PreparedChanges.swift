import Logging
@_spi(StoreAuthoring) import Strata

/// The store's part of a save across stores that a save log decides: written in a prepared
/// transaction (`PREPARE TRANSACTION`), committed (`COMMIT PREPARED`) or rolled back
/// (`ROLLBACK PREPARED`) once the coordinator has decided the save (docs/STRIPED-SAVES.md).
extension PostgresStore: PreparingStore {
    /// The longest name of a prepared transaction the server keeps, in bytes.
    static let longestPreparedName = 199

    /// The server, database and user the store connects as: stores in schemas of one database
    /// write their parts of a save across stores in one transaction.
    package var transactionDomain: String? { location.database }

    /// For each part, locks the rows of updated and deleted objects, checks their versions and
    /// the uniqueness constraints and writes the changes, then prepares the transaction as
    /// `name`.
    ///
    /// - Throws: ``StoreError/Code/unsupported`` naming `max_prepared_transactions` when the
    ///   server allows no prepared transactions, or when `name` is too long for one; what a
    ///   save throws. Nothing is kept when it throws.
    package func prepare(_ parts: [(store: any IncrementalStore, changes: StoreChangeSet)], named name: String) throws
        -> any PreparedChanges
    {
        let parts = try jointParts(parts)
        guard name.utf8.count <= Self.longestPreparedName else {
            throw StoreError(
                code: .unsupported,
                message: "\(storeName) cannot prepare its part of a save across stores as '\(name)': the name is "
                    + "longer than the \(Self.longestPreparedName) bytes PostgreSQL keeps.")
        }
        let written = try withConnection { connection in
            try checkPreparedTransactionsAllowed(on: connection)
            return try connection.preparedTransaction(named: name) {
                try write(parts, notifying: false, on: connection)
            }
        }
        return PreparedPostgresChanges(leader: self, name: name, written: written)
    }

    /// Saves every part in one transaction that commits once `decision` returns, notes the
    /// history transactions they record as their stores' own, and gives each store the
    /// metadata it wrote.
    package func save(
        jointly parts: [(store: any IncrementalStore, changes: StoreChangeSet)],
        committingAfter decision: () throws -> Void
    ) throws {
        let parts = try jointParts(parts)
        var noted: [Written] = []
        do {
            try withConnection { connection in
                try connection.transaction {
                    noted = try write(parts, notifying: true, on: connection)
                    for part in noted { part.noteHistory() }
                    try decision()
                }
            }
        } catch {
            for part in noted { part.forgetHistory() }
            throw error
        }
        for part in noted { part.takeMetadata() }
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
            if commit { try history.notify(0, on: connection) }
        }
    }

    package func reloadMetadata() throws {
        setMetadata(try withConnection { try PostgresStoreDatabase.readMetadata(in: location, on: $0).metadata })
    }

    /// What a part of a save across stores wrote in a store: the number of the history
    /// transaction it records and the metadata it writes, if any.
    struct Written {
        let store: PostgresStore
        let historyNumber: Int64?
        let metadata: StoreMetadata?

        /// Notes the history transaction as the store's own, before it commits.
        func noteHistory() { if let historyNumber { store.recordedHistory.noteRecorded(historyNumber) } }

        /// Forgets the history transaction: it did not commit.
        func forgetHistory() { if let historyNumber { store.recordedHistory.forgetRecorded(historyNumber) } }

        /// Gives the store the metadata the part wrote, once it committed.
        func takeMetadata() { if let metadata { store.setMetadata(metadata) } }
    }

    /// `parts` as parts of PostgreSQL stores of this store's database, this store's included.
    private func jointParts(_ parts: [(store: any IncrementalStore, changes: StoreChangeSet)]) throws -> [(
        store: PostgresStore, changes: StoreChangeSet
    )] {
        try parts.map { part in
            guard let store = part.store as? PostgresStore, store.transactionDomain == transactionDomain else {
                throw StoreError(
                    code: .unsupported,
                    message: "\(storeName) shares no transaction with \(part.store.nameInMessages).")
            }
            guard !store.options.isReadOnly else {
                throw StoreError(code: .readOnly, message: "\(store.storeName) was opened read-only.")
            }
            return (store, part.changes)
        }
    }

    /// Writes each part on `connection`, in its transaction.
    private func write(
        _ parts: [(store: PostgresStore, changes: StoreChangeSet)], notifying: Bool, on connection: PostgresConnection
    ) throws -> [Written] {
        try parts.map { part in
            var number: Int64?
            let metadata = try part.store.write(
                part.changes, note: { number = $0 }, notifying: notifying, on: connection)
            return Written(store: part.store, historyNumber: number, metadata: metadata)
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

/// The parts of a save across stores that stores of one database prepared on the server as
/// `name`.
private struct PreparedPostgresChanges: PreparedChanges {
    /// The store that prepared the transaction.
    let leader: PostgresStore
    let name: String
    /// What each part wrote.
    let written: [PostgresStore.Written]

    func commit() throws {
        for part in written { part.noteHistory() }
        try leader.withConnection { connection in
            try connection.execute("COMMIT PREPARED \(try connection.quotedLiteral(name))")
            for part in written {
                part.takeMetadata()
                guard let number = part.historyNumber else { continue }
                do {
                    try part.store.history.notify(number, on: connection)
                } catch {
                    part.store.logger.warning(
                        "Could not tell listeners of a committed save across stores; they hear of it at the next save",
                        metadata: ["store": "\(part.store.storeName)", "error": "\(error)"])
                }
            }
        }
    }

    func rollBack() {
        do {
            _ = try leader.withConnection { connection in
                try connection.execute("ROLLBACK PREPARED \(try connection.quotedLiteral(name))")
            }
        } catch {
            leader.logger.warning(
                "Could not roll back a prepared transaction; the next save across the same stores rolls it back",
                metadata: ["store": "\(leader.storeName)", "prepared": "\(name)", "error": "\(error)"])
        }
    }
}
