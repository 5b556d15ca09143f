import Foundation
import Logging
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// A PostgreSQL store logs what the SQLite store logs: statements slower than its
/// `slowStatementThreshold`, the statements themselves at the levels of `STRATA_SQL_DEBUG`, and
/// lost connections and reconnections.
@Suite struct PostgresStatementLogTests {
    /// A store of `ContentionModel` in a schema of its own, logging to `log`, with `settings`.
    private func store(
        _ name: String, log: CapturedLog, settings: [String: String]
    ) throws -> any IncrementalStore {
        let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema(name))
        let coordinator = try PersistentStoreCoordinator(
            model: ContentionModel.model, storeTypes: [.postgres], logger: log.logger())
        return try coordinator.addStore(
            type: StoreType.postgres.name, at: url, options: StoreOptions(settings: settings))
    }

    /// A pool of one connection to the test server whose statements `trace` logs.
    private func pool(_ name: String, trace: PostgresStatementTrace) throws -> PostgresConnectionPool {
        let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema(name))
        return PostgresConnectionPool(location: try PostgresLocation(url: url), size: 1, trace: trace)
    }

    @Test func statementsOverTheThresholdAreLoggedAsSlowWithTheirSQL() throws {
        let log = CapturedLog()
        let store = try store("slow", log: log, settings: ["slowStatementThreshold": "0"])
        try ContentionModel.writeEntries(2, as: "slow", into: store)
        _ = try store.execute(StoreFetchRequest(entityName: "Entry", resultType: .count))
        let slow = log.lines("Slow SQL statement") + log.lines("Slow SQL pipeline")
        #expect(slow.allSatisfy { $0.level == .warning && $0.metadata["milliseconds"] != nil })
        #expect(slow.allSatisfy { $0.metadata["store.url"]?.hasPrefix("postgresql://") == true })
        #expect(slow.contains { $0.metadata["sql"]?.contains("INSERT INTO") == true }, "\(slow)")
        #expect(slow.contains { $0.metadata["sql"]?.lowercased().contains("count(") == true }, "\(slow)")
    }

    @Test func statementsUnderTheThresholdAreNotLogged() throws {
        let log = CapturedLog()
        let store = try store("fast", log: log, settings: ["slowStatementThreshold": "60000"])
        try ContentionModel.writeEntries(2, as: "fast", into: store)
        #expect(log.lines("Slow SQL statement").isEmpty && log.lines("Slow SQL pipeline").isEmpty)
    }

    @Test func aNegativeThresholdIsRefusedNamingTheSetting() throws {
        let error = #expect(throws: StoreError.self) {
            _ = try store("negative", log: CapturedLog(), settings: ["slowStatementThreshold": "-1"])
        }
        #expect(error?.code == .invalidOption)
        #expect(error?.message.contains("slowStatementThreshold") == true)
    }

    @Test func aConnectionIsTimedOnlyWhenItsLoggerKeepsWarningsOrTheLevelAsks() throws {
        var traced: [Bool] = []
        for (level, debug) in [(Logger.Level.error, 0), (.warning, 0), (.error, 1)] {
            let trace = PostgresStatementTrace(
                logger: CapturedLog().logger(level: level), slowStatementThreshold: .zero, storeName: "test",
                level: debug)
            traced.append(try pool("timed", trace: trace).withConnection { $0.trace != nil })
        }
        #expect(traced == [false, true, true])
    }

    @Test func levelOneLogsStatementsAndLevelTwoTheirValuesAndTimes() throws {
        var outputs: [[String]] = []
        for level in [1, 2] {
            let log = CapturedLog()
            let trace = PostgresStatementTrace(
                logger: log.logger(level: .info), slowStatementThreshold: .seconds(60), storeName: "test", level: level)
            try pool("levels", trace: trace).withConnection { connection in
                _ = try connection.execute("SELECT $1::int8 + 1", [.bigint(41)])
                _ = try connection.executeInPipeline([("SELECT $1::text", [.text("Oslo")]), ("SELECT 2", [])])
            }
            outputs.append(log.lines.filter { $0.level == .info }.map(\.message))
        }
        #expect(outputs[0] == ["SQL SELECT $1::int8 + 1", "SQL SELECT $1::text", "SQL SELECT 2"])
        #expect(outputs[1].count == 4, "\(outputs[1])")
        #expect(outputs[1].first?.hasPrefix("SQL SELECT $1::int8 + 1 -- $1 = 41 [") == true, "\(outputs[1])")
        #expect(outputs[1].first?.hasSuffix(" ms]") == true)
        #expect(outputs[1].contains("SQL SELECT $1::text -- $1 = 'Oslo'"), "\(outputs[1])")
        #expect(outputs[1].last?.hasPrefix("SQL pipeline of 2 statements [") == true, "\(outputs[1])")
    }

    @Test func levelFourLogsTheQueryPlanOfAFetch() throws {
        let log = CapturedLog()
        let trace = PostgresStatementTrace(
            logger: log.logger(level: .info), slowStatementThreshold: .seconds(60), storeName: "test", level: 4)
        try pool("plan", trace: trace).withConnection { connection in
            trace.explain("SELECT * FROM pg_class WHERE relname = $1::text", [.text("pg_type")], on: connection)
        }
        let plans = log.lines.filter { $0.message.hasPrefix("PLAN ") }.map(\.message)
        #expect(plans.count == 1)
        #expect(plans.first?.contains("Scan") == true, "\(plans)")
    }

    @Test func aLostConnectionAndTheReconnectionAreLogged() throws {
        let log = CapturedLog()
        let trace = PostgresStatementTrace(
            logger: log.logger(level: .notice), slowStatementThreshold: .seconds(60), storeName: "test", level: 0)
        let pool = try pool("reconnect", trace: trace)
        let pid = try pool.withConnection { try $0.execute("SELECT pg_backend_pid()").int64(0, 0) }
        let other = try pool.connect()
        _ = try other.execute("SELECT pg_terminate_backend($1::int4)", [.integer(Int32(try #require(pid)))])
        // The idle connection is gone: the request runs again on a new one.
        let answer = try pool.withConnection { try $0.execute("SELECT 7::int8").int64(0, 0) }
        #expect(answer == 7)
        #expect(log.lines("Lost a connection to the PostgreSQL server").map(\.level) == [.warning])
        #expect(log.lines("Reconnected to the PostgreSQL server").map(\.level) == [.notice])
    }

    /// The standard error of a worker incrementing a counter once with `STRATA_SQL_DEBUG=level`.
    private func tracedOutput(level: String) throws -> String {
        let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("traced"))
        let coordinator = try PersistentStoreCoordinator(model: CounterModel.model, storeTypes: [.postgres])
        try coordinator.addStore(.postgres(at: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let counter = try context.insertNewObject(forEntityName: "Counter")
            try counter.setValue("shared", forKey: "name")
            try counter.setValue(.integer64(0), forKey: "value")
            try context.save()
        }
        let run = try BuiltProducts.standardError(
            of: "PostgresCounterWorker", [url.absoluteString, "tracer", "1"], environment: ["STRATA_SQL_DEBUG": level])
        #expect(run.status == 0, "\(run.output)")
        return run.output
    }

    @Test func theEnvironmentVariableSetsTheLevelOfAStoreInAnotherProcess() throws {
        let statements = try tracedOutput(level: "1")
        #expect(statements.contains("SQL INSERT INTO"), "\(statements)")
        #expect(!statements.contains(" ms]") && !statements.contains("PLAN"))
        let plans = try tracedOutput(level: "4")
        #expect(plans.contains("PLAN SELECT") && plans.contains("'tracer'") && plans.contains(" ms]"), "\(plans)")
        #expect(try tracedOutput(level: "0").isEmpty)
    }
}
