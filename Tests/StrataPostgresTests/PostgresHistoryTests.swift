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
