import Foundation
import StrataConformance

@testable import StrataSQLite

// The conformance worker of the SQLite store: the durability and unreadable-file checks of
// SQLiteStoreConformanceTests run it in a child process.
exit(ConformanceWorker.run(storeType: .sqlite, arguments: Array(CommandLine.arguments.dropFirst())))
