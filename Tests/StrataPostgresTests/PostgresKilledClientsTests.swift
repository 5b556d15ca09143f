import CStrataPostgres
import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// A client gone while its `COMMIT` still runs on the server: the commit becomes visible a
/// moment later, and `PostgresKilledClients.awaitWork(of:)` returns only once it has.
@Suite struct PostgresKilledClientsTests {
    /// A table in a schema of its own whose inserts take half a second to commit (a deferred
    /// trigger sleeps), and a URL whose connections name the schema as their application.
    struct SlowCommits {
        let schema = PostgresTestServer.uniqueSchema("killed")
        let url: URL
        let connection: PostgresConnection

        init() throws {
            url = try PostgresTestServer.shared.get().storeURL(schema: schema, applicationName: schema)
            let location = try PostgresLocation(url: url)
            connection = try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
            try connection.execute("CREATE SCHEMA \(schema)")
            try connection.execute("CREATE TABLE \(schema).saves (n int)")
            try connection.execute(
                "CREATE FUNCTION \(schema).slowly() RETURNS trigger LANGUAGE plpgsql AS "
                    + "$$ BEGIN PERFORM pg_sleep(0.5); RETURN NULL; END $$")
            try connection.execute(
                "CREATE CONSTRAINT TRIGGER slowly AFTER INSERT ON \(schema).saves DEFERRABLE INITIALLY DEFERRED "
                    + "FOR EACH ROW EXECUTE FUNCTION \(schema).slowly()")
        }

        func savedRows() throws -> Int64? {
            try connection.execute("SELECT count(*) FROM \(schema).saves").int64(0, 0)
        }

        /// Connects as the schema's application and sends `sql` without waiting for its answer.
        func send(_ sql: String) throws -> OpaquePointer {
            let client = try #require(PQconnectdb(try PostgresLocation(url: url).conninfo))
            #expect(PQstatus(client) == CONNECTION_OK)
            #expect(PQsendQuery(client, sql) == 1)
            return client
        }

        func drop() { _ = try? connection.execute("DROP SCHEMA \(schema) CASCADE") }
    }

    @Test func aCommitStillRunningWhenItsClientWentAwayIsVisibleOnceTheWaitReturns() throws {
        let table = try SlowCommits()
        defer { table.drop() }
        PQfinish(try table.send("BEGIN; INSERT INTO \(table.schema).saves VALUES (1); COMMIT"))
        let rowsAtOnce = try table.savedRows()
        try PostgresKilledClients.awaitWork(of: table.url)
        #expect(rowsAtOnce == 0, "The commit should still have been running when its client went away.")
        #expect(try table.savedRows() == 1)
    }

    @Test func workStillRunningAfterTheTimeoutIsAnInUseErrorNamingTheApplication() throws {
        let table = try SlowCommits()
        defer { table.drop() }
        let client = try table.send("SELECT pg_sleep(2)")
        defer { PQfinish(client) }
        let error = try #require(throws: StoreError.self) {
            try PostgresKilledClients.awaitWork(of: table.url, timeout: 0.2)
        }
        #expect(error.code == .inUse)
        #expect(error.message.contains("'\(table.schema)'"), "\(error.message)")
    }

    @Test func aURLWithoutAnApplicationNameIsRefused() throws {
        let url = try PostgresTestServer.shared.get().storeURL(schema: "refused")
        let error = try #require(throws: StoreError.self) { try PostgresKilledClients.awaitWork(of: url) }
        #expect(error.code == .invalidOption)
        #expect(error.message.contains("application_name"), "\(error.message)")
    }
}
