/// The statements one connection has prepared on the server, so that a statement the store
/// runs again and again is parsed and planned once, as a prepared statement, instead of at
/// every run.
///
/// A statement is prepared the second time it runs with the same parameter types (running it
/// once costs no extra round trip); at most ``capacity`` stay prepared, the least recently
/// used leaving first. A statement longer than ``maximumLength`` (a multi-row `INSERT`, whose
/// text and parameter types change with its rows and their nulls) always runs unprepared and
/// is not remembered, so the cache's memory stays small.
struct PostgresStatementCache {
    /// A statement's text with the types of its parameters: a prepared statement's parameter
    /// types are fixed when it is prepared.
    struct Key: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// How many prepared statements a connection keeps at most.
    static let capacity = 256
    /// The longest statement, in bytes of SQL, the cache prepares or remembers.
    static let maximumLength = 4_096

    private var prepared: [Key: (name: String, lastUse: Int)] = [:]
    private var seenOnce: Set<Key> = []
    private var clock = 0
    private var nextNumber = 0

    /// What to do to run the statement of `key`.
    enum Plan: Equatable {
        /// Run it as the prepared statement `name`.
        case run(name: String)
        /// Prepare it as `name`, after deallocating `evicting` when it is given, then run it.
        case prepare(name: String, evicting: String?)
        /// Run it unprepared.
        case runUnprepared
    }

    /// How to run the statement of `key` now; a `prepare` plan counts as done once
    /// ``didPrepare(_:name:)`` is told.
    mutating func plan(for key: Key) -> Plan {
        guard key.sql.utf8.count <= Self.maximumLength else { return .runUnprepared }
        clock += 1
        if let entry = prepared[key] {
            prepared[key] = (entry.name, clock)
            return .run(name: entry.name)
        }
        guard seenOnce.contains(key) else {
            if seenOnce.count >= Self.capacity * 4 { seenOnce.removeAll(keepingCapacity: true) }
            seenOnce.insert(key)
            return .runUnprepared
        }
        nextNumber += 1
        let evicting =
            prepared.count >= Self.capacity ? prepared.min { $0.value.lastUse < $1.value.lastUse } : nil
        if let evicting { prepared[evicting.key] = nil }
        return .prepare(name: "strata_\(nextNumber)", evicting: evicting?.value.name)
    }

    /// Records that `key` is prepared as `name`.
    mutating func didPrepare(_ key: Key, name: String) {
        seenOnce.remove(key)
        prepared[key] = (name, clock)
    }
}
