import Foundation
import Logging
import Strata
import StrataTestSupport

@testable import StrataSQLite

// Writes entries into an SQLite store, then fetches them: for SQLiteConcurrencyTests (another
// process writes the same store) and SQLiteDebugTraceTests.
// `SQLiteContentionWorker <store path> <writer> <count>`
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: SQLiteContentionWorker <store> <writer> <count>\n".utf8))
    exit(2)
}
// Logs to standard error: warnings, and the SQL trace when `STRATA_SQL_DEBUG` asks for it.
var logger = Logger(label: "strata.worker") { StreamLogHandler.standardError(label: $0) }
logger.logLevel = SQLiteDebugTrace.level > 0 ? .info : .warning
do {
    let coordinator = try PersistentStoreCoordinator(
        model: ContentionModel.model, storeTypes: [.sqlite], logger: logger)
    let store = try coordinator.addStore(type: StoreType.sqlite.name, at: URL(fileURLWithPath: arguments[1]))
    try ContentionModel.writeEntries(count, as: arguments[2], into: store)
    print(
        try store.execute(StoreFetchRequest(entityName: "Entry", predicate: try FetchPredicate(format: "serial >= 0"))))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
