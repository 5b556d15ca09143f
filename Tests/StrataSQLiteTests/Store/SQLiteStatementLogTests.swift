import Foundation
import Logging
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// An SQLite store logs statements slower than its threshold to its coordinator's logger, and
/// traces nothing when nothing would be logged.
@Suite struct SQLiteStatementLogTests {
    @Test func statementsOverTheThresholdAreLoggedAsSlowWithTheirSQL() throws {
        let directory = try TemporaryDirectory()
        let log = CapturedLog()
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, logger: log.logger())
        let store = try coordinator.addStore(
            .sqlite(at: directory.file("slow.sqlite"), options: SQLiteStoreOptions(slowStatementThreshold: .zero)))
        try ContentionModel.writeEntries(2, as: "slow", into: store)
        _ = try store.execute(StoreFetchRequest(entityName: "Entry", resultType: .count))
        let slow = log.lines("Slow SQL statement")
        #expect(slow.allSatisfy { $0.level == .warning && $0.metadata["milliseconds"] != nil })
        #expect(slow.contains { $0.metadata["sql"]?.contains("INSERT INTO") == true })
        #expect(slow.contains { $0.metadata["sql"]?.lowercased().contains("select count") == true })
    }

    @Test func statementsUnderTheThresholdAreNotLogged() throws {
        let directory = try TemporaryDirectory()
        let log = CapturedLog()
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, logger: log.logger())
        let store = try coordinator.addStore(
            .sqlite(
                at: directory.file("fast.sqlite"), options: SQLiteStoreOptions(slowStatementThreshold: .seconds(60))))
        try ContentionModel.writeEntries(2, as: "fast", into: store)
        #expect(log.lines("Slow SQL statement").isEmpty)
    }

    @Test func aConnectionIsTracedOnlyWhenItsLoggerKeepsWarnings() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("traced.sqlite").path
        var traced: [Bool] = []
        for level in [Logger.Level.error, .warning] {
            let connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
            SQLiteDebugTrace(logger: CapturedLog().logger(level: level), slowStatementThreshold: .zero)
                .install(on: connection)
            traced.append(connection.trace != nil)
        }
        #expect(traced == [SQLiteDebugTrace.level > 0, true])
    }
}
