import Foundation
import Logging
import Strata
import StrataPostgres
import StrataTestSupport

// Increments a shared counter and inserts an entry per increment through a coordinator of its
// own: for PostgresMultiProcessTests, which runs several at once on one store.
// `PostgresCounterWorker <store URL> <writer> <count>`; prints the conflicts it met. Logs to
// standard error: warnings, and the SQL trace when `STRATA_SQL_DEBUG` asks for it.
let arguments = CommandLine.arguments
guard arguments.count == 4, let url = URL(string: arguments[1]), let count = Int64(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: PostgresCounterWorker <store URL> <writer> <count>\n".utf8))
    exit(2)
}
var logger = Logger(label: "strata.worker") { StreamLogHandler.standardError(label: $0) }
logger.logLevel = (Int(ProcessInfo.processInfo.environment["STRATA_SQL_DEBUG"] ?? "") ?? 0) > 0 ? .info : .warning
do {
    let coordinator = try PersistentStoreCoordinator(
        model: CounterModel.model, storeTypes: [.postgres], logger: logger)
    try coordinator.addStore(.postgres(at: url))
    let context = ManagedObjectContext(coordinator: coordinator)
    var conflicts = 0
    for serial in 0..<count {
        conflicts += try CounterModel.increment("shared", writer: arguments[2], serial: serial, in: context)
    }
    print(conflicts)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
