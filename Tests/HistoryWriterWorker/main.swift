import Foundation
import Strata
import StrataLMDB
import StrataPostgres
import StrataSQLite
import StrataTestSupport

// The other process of RemoteChangeTests, on a store of ContentionModel entries with history on.
// `HistoryWriterWorker SQLite|LMDB|PostgreSQL <store path or URL> <count>` inserts entries 0..<count in one save as
// author "worker", then renames entry 0's writer to "renamed" in a second save, and prints
// `saved`.
let arguments = CommandLine.arguments
let types: [String: StoreType] = ["SQLite": .sqlite, "LMDB": .lmdb, "PostgreSQL": .postgres]
guard arguments.count == 4, let type = types[arguments[1]], let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: HistoryWriterWorker SQLite|LMDB|PostgreSQL <store> <count>\n".utf8))
    exit(2)
}
do {
    let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [type])
    let store = type == .postgres ? URL(string: arguments[2]) : URL(fileURLWithPath: arguments[2])
    _ = try coordinator.addStore(
        type: type.name, at: store, options: StoreOptions(tracksPersistentHistory: true))
    let context = ManagedObjectContext(coordinator: coordinator, name: "worker context")
    try context.performAndWait {
        context.transactionAuthor = "worker"
        let entries = try (0..<count).map { serial in
            let entry = try context.insertNewObject(forEntityName: "Entry")
            try entry.setValue(.string("worker"), forKey: "writer")
            try entry.setValue(.integer64(Int64(serial)), forKey: "serial")
            return entry
        }
        try context.save()
        try entries.first?.setValue(.string("renamed"), forKey: "writer")
        try context.save()
    }
    print("saved")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
