import Foundation
import Strata
import StrataSQLite
import StrataTestSupport

// Writes entries into an SQLite store while another process does the same, for
// SQLiteConcurrencyTests: `SQLiteContentionWorker <store path> <writer> <count>`.
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: SQLiteContentionWorker <store> <writer> <count>\n".utf8))
    exit(2)
}
do {
    let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.sqlite])
    let store = try coordinator.addStore(type: StoreType.sqlite.name, at: URL(fileURLWithPath: arguments[1]))
    try ContentionModel.writeEntries(count, as: arguments[2], into: store)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
