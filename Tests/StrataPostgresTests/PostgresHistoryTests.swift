import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// The PostgreSQL store's history beyond the conformance suite: other writers' saves are
/// found through notifications, also when the listening connection was lost to a server
/// restart, and the history lives in tables SQL can read.
@Suite struct PostgresHistoryTests {
    static func openTracking(_ schema: String, on server: PostgresTestServer) throws -> any IncrementalStore {
        let coordinator = try PersistentStoreCoordinator(model: PostgresTestModel.model, storeTypes: [.postgres])
        return try coordinator.addStore(
            type: StoreType.postgres.name, at: server.storeURL(schema: schema),
            options: StoreOptions(tracksPersistentHistory: true, postsRemoteChangeNotifications: true))
    }

    @Test func aSaveAfterAServerRestartIsStillFound() throws {
        let server = try PostgresTestServer.makeServer()
        let watcher = try Self.openTracking("watched", on: server)
        let writer = try Self.openTracking("watched", on: server)
        try PostgresTestModel.insert([("before", 1)], into: writer)
        let first = try #require(try watcher.remoteHistory(after: 0))
        #expect(first.transactions.count == 1)
        #expect(try watcher.remoteHistory(after: first.lastTransactionNumber) == nil)

        try server.stop()
        try server.restart()
        try PostgresTestModel.insert([("after", 2)], into: writer)
        let found = try #require(try watcher.remoteHistory(after: first.lastTransactionNumber))
        #expect(found.transactions.map(\.token.transactionNumber) == [first.lastTransactionNumber + 1])
        #expect(found.transactions.first?.changes?.map(\.changeType) == [.insert])
    }

    /// Tags whose names are unique, for a save that fails at its commit.
    static let tagModel = ManagedObjectModel {
        EntityDescription("Tag") {
            AttributeDescription("name", .string)
            UniquenessConstraint("name")
        }
    }

    static func saveTag(_ name: String, into store: any IncrementalStore) throws {
        let id = try #require(try store.permanentIDs(forEntities: ["Tag"]).first)
        try store.save(
            StoreChangeSet(inserted: [.init(objectID: id, values: ["name": .string(name)], expectedVersion: 0)]))
    }

    /// A save whose commit fails (here: another transaction committed the same unique name
    /// while it waited) hands its history number back; the watch must not take the next
    /// writer's transaction of that number for the failed save's.
    @Test func aSaveFailingAtCommitDoesNotHideTheTransactionThatTakesItsNumber() throws {
        let url = PostgresTestServer.storeURL(schema: PostgresTestServer.uniqueSchema("commitfail"))
        let options = StoreOptions(tracksPersistentHistory: true, postsRemoteChangeNotifications: true)
        let watcher = try PersistentStoreCoordinator(model: Self.tagModel, storeTypes: [.postgres])
            .addStore(type: StoreType.postgres.name, at: url, options: options)
        let writer = try PersistentStoreCoordinator(model: Self.tagModel, storeTypes: [.postgres])
            .addStore(type: StoreType.postgres.name, at: url, options: options)
        _ = try watcher.remoteHistory(after: 0)
        let store = try #require(watcher as? PostgresStore)
        let table = try #require(store.layout.tableOfEntity["Tag"])
        let raw = try PostgresConnection(conninfo: store.location.conninfo, serverName: "test")
        try raw.execute("BEGIN")
        try raw.execute(
            "INSERT INTO \(store.layout.qualified(table.name)) (_pk, _ent, _opt, \"name\") VALUES ($1, $2, 1, $3)",
            [
                .bigint(1_000_000), .smallint(try #require(store.layout.entityNumbers["Tag"])),
                .bytes(Array("clash".utf8)),
            ])
        let failure = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { try Self.saveTag("clash", into: watcher) } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.5)
        try raw.execute("COMMIT")
        done.wait()
        #expect((failure.withLock { $0 } as? StoreError)?.code == .constraintConflict)

        try Self.saveTag("other", into: writer)
        let found = try #require(try watcher.remoteHistory(after: 0))
        #expect(found.transactions.map(\.token.transactionNumber) == [1])
        #expect(found.transactions.first?.changes?.count == 1)
    }

    @Test func transactionsAreRowsWithReadableColumns() throws {
        let server = try PostgresTestServer.shared.get()
        let schema = PostgresTestServer.uniqueSchema("history")
        let store = try Self.openTracking(schema, on: server)
        try PostgresTestModel.insert([("one", 1), ("two", 2)], into: store)
        let connection = try PostgresConnection(
            conninfo: try PostgresLocation(url: server.storeURL(schema: schema)).conninfo, serverName: "test")
        let rows = try connection.execute(
            "SELECT number, process_identifier, first_change FROM \(PostgresIdentifier.qualified(schema, "_strata_history"))"
        )
        #expect(rows.rowCount == 1)
        #expect(rows.int64(0, 0) == 1)
        #expect(rows.value(0, 1) == .text(StoreChangeSet.HistoryInfo.currentProcessName))
        #expect(rows.int64(0, 2) == 1)
    }
}
