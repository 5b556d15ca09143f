import Foundation
@_spi(StoreAuthoring) import Strata

/// How a PostgreSQL store keeps its persistent history (docs/HISTORY.md): two tables in the
/// store's schema, written in the save's own transaction.
///
/// - `_strata_history`: one row per transaction, by number, with who saved it and when as
///   columns SQL can filter on, the number of its first change, and its changes as one
///   Strata binary record (``BinaryWriter/write(historyChange:)``).
/// - `_strata_history_counters`: one row with the last transaction and change numbers handed
///   out, so that neither is handed out twice, also after the history is deleted. A save takes
///   the row's lock when it numbers its transaction, so transactions commit in number order:
///   a reader that has seen transaction *n* has seen every one before it.
///
/// Every save that records a transaction also sends a notification on ``channel``, which
/// ``PostgresChangeListener`` listens to.
struct PostgresHistoryTables: Sendable {
    static let transactionTable = "_strata_history"
    static let counterTable = "_strata_history_counters"

    /// The store's schema.
    let schemaName: String

    var transactions: String { PostgresIdentifier.qualified(schemaName, Self.transactionTable) }
    var counters: String { PostgresIdentifier.qualified(schemaName, Self.counterTable) }

    /// The notification channel of the store's saves: one per schema.
    var channel: String { PostgresIdentifier.clipped("strata_history." + schemaName) }

    /// The columns of a transaction row, in the order ``insert(_:number:changes:firstChange:context:on:)`` writes them.
    static let columns = [
        "number", "timestamp", "author", "context_name", "process_identifier", "bundle_identifier", "first_change",
        "changes",
    ]

    /// Creates the tables and the counter row unless the schema has them.
    func create(on connection: PostgresConnection) throws {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS \(transactions) (number int8 PRIMARY KEY, timestamp float8 NOT NULL, \
            author text, context_name text, process_identifier text, bundle_identifier text, \
            first_change int8 NOT NULL, changes bytea NOT NULL)
            """)
        try connection.execute(
            "CREATE INDEX IF NOT EXISTS \(PostgresIdentifier.quoted(Self.transactionTable + "_timestamp")) "
                + "ON \(transactions) (timestamp)")
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(counters) (id int2 PRIMARY KEY CHECK (id = 1), "
                + "last_transaction int8 NOT NULL, last_change int8 NOT NULL)")
        try connection.execute("INSERT INTO \(counters) VALUES (1, 0, 0) ON CONFLICT (id) DO NOTHING")
    }

    /// Whether the schema has the tables.
    func exist(on connection: PostgresConnection) throws -> Bool {
        let found = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [.text(counters)])
        return found.value(0, 0) == .boolean(true)
    }

    /// Drops the tables, when the schema has them.
    func drop(on connection: PostgresConnection) throws {
        try connection.execute("DROP TABLE IF EXISTS \(transactions), \(counters)")
    }

    /// Hands out the next transaction number and `changeCount` change numbers, locking the
    /// counter row until the transaction ends; returns the transaction's number and its first
    /// change's.
    func reserve(changeCount: Int, on connection: PostgresConnection) throws -> (transaction: Int64, firstChange: Int64)
    {
        let rows = try connection.execute(
            "UPDATE \(counters) SET last_transaction = last_transaction + 1, last_change = last_change + $1 "
                + "WHERE id = 1 RETURNING last_transaction, last_change",
            [.bigint(Int64(changeCount))])
        guard rows.rowCount == 1, let transaction = rows.int64(0, 0), let lastChange = rows.int64(0, 1) else {
            throw StoreError(code: .corrupt, message: "The history counters of schema '\(schemaName)' are missing.")
        }
        return (
            transaction,
            try StoredCounter.adding(
                1, to: lastChange &- Int64(changeCount), "The last history change of schema '\(schemaName)'")
        )
    }

    /// The last transaction and change numbers handed out; with `lockingThem`, the counter row
    /// stays locked until the transaction ends.
    func lastNumbers(lockingThem: Bool = false, on connection: PostgresConnection) throws
        -> (transaction: Int64, change: Int64)
    {
        let rows = try connection.execute(
            "SELECT last_transaction, last_change FROM \(counters) WHERE id = 1" + (lockingThem ? " FOR UPDATE" : ""))
        guard rows.rowCount == 1, let transaction = rows.int64(0, 0), let change = rows.int64(0, 1) else {
            throw StoreError(code: .corrupt, message: "The history counters of schema '\(schemaName)' are missing.")
        }
        return (transaction, change)
    }

    /// Sets the last transaction and change numbers handed out.
    func setLastNumbers(transaction: Int64, change: Int64, on connection: PostgresConnection) throws {
        try connection.execute(
            "UPDATE \(counters) SET last_transaction = $1, last_change = $2 WHERE id = 1",
            [.bigint(transaction), .bigint(change)])
    }

    /// Writes transaction `number` saved as `info` with `changes`, the first numbered `firstChange`.
    func insert(
        _ info: StoreChangeSet.HistoryInfo, number: Int64, changes: [PersistentHistoryChange], firstChange: Int64,
        context: BinaryCodingContext, on connection: PostgresConnection
    ) throws {
        let record = BinaryRecord.encode(context: context) { writer in
            writer.write(count: changes.count)
            for change in changes { writer.write(historyChange: change) }
        }
        let texts = [info.author, info.contextName, info.processIdentifier, info.bundleIdentifier].map {
            $0.map(PostgresValue.text) ?? .null
        }
        try connection.execute(
            "INSERT INTO \(transactions) (\(Self.columns.map(PostgresIdentifier.quoted).joined(separator: ", "))) "
                + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [.bigint(number), .double(info.timestamp.timeIntervalSinceReferenceDate)] + texts + [
                .bigint(firstChange), .bytes(record),
            ])
    }

    /// Tells listeners that transaction `number` is saved, when the transaction commits.
    func notify(_ number: Int64, on connection: PostgresConnection) throws {
        try connection.execute("SELECT pg_notify($1, $2)", [.text(channel), .text(String(number))])
    }

    /// The SQL condition selecting the transactions after `bound`, with its parameter.
    static func condition(after bound: StoreHistoryBound) -> (sql: String, parameter: PostgresValue) {
        switch bound {
        case .transactionNumber(let number): ("number > $1", .bigint(number))
        case .date(let date): ("timestamp > $1", .double(date.timeIntervalSinceReferenceDate))
        }
    }

    /// The SQL condition selecting the transactions up to `bound`, for deleting, with its parameter.
    static func condition(upTo bound: StoreHistoryBound) -> (sql: String, parameter: PostgresValue) {
        switch bound {
        case .transactionNumber(let number): ("number <= $1", .bigint(number))
        case .date(let date): ("timestamp < $1", .double(date.timeIntervalSinceReferenceDate))
        }
    }

    /// The transaction in row `row` of a `SELECT` of ``columns`` (without the changes when
    /// `includingChanges` is false, or with them last), as transaction `token`'s.
    static func transaction(
        _ rows: PostgresResult, row: Int, storeIdentifier: String, includingChanges: Bool,
        context: BinaryCodingContext, source: String
    ) throws -> PersistentHistoryTransaction {
        guard let number = rows.int64(row, 0), case .double(let seconds)? = rows.value(row, 1) else {
            throw StoreError(code: .corrupt, message: "\(source) has a history transaction without a number or time.")
        }
        func text(_ column: Int) -> String? {
            if case .text(let text)? = rows.value(row, column) { return text }
            return nil
        }
        let info = StoreChangeSet.HistoryInfo(
            timestamp: Date(timeIntervalSinceReferenceDate: seconds), author: text(2), contextName: text(3),
            processIdentifier: text(4), bundleIdentifier: text(5))
        let token = PersistentHistoryToken(storeIdentifier: storeIdentifier, transactionNumber: number)
        var transaction = PersistentHistoryTransaction(token: token, info: info)
        guard includingChanges else { return transaction }
        guard let first = rows.int64(row, 6), let record = rows.bytes(row, 7) else {
            throw StoreError(
                code: .corrupt, message: "\(source) has history transaction \(number) without its changes.")
        }
        let what = "\(source), the changes of history transaction \(number)"
        transaction.changes = try BinaryRecord.decode(record, source: what, context: context) { reader in
            try (0..<reader.readCount("the number of changes")).map { index in
                try reader.readHistoryChange(
                    identifier: StoredCounter.adding(Int64(index), to: first, "\(what), numbered from \(first),"),
                    token: token)
            }
        }
        return transaction
    }
}
