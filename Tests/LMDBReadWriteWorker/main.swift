import Foundation
import Strata
import StrataTestSupport

@testable import StrataLMDB

// One process of LMDBMultiProcessTests, on a store of ContentionModel entries.
// `LMDBReadWriteWorker write <store path> <count>` saves entries 0..<count, one save each.
// `LMDBReadWriteWorker read <store path> <count>` reads until it sees `count` entries; each read
// must see entries 0..<n for some n no smaller than the last read's, or it fails. It prints
// `read <number of reads>`.
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]), ["read", "write"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: LMDBReadWriteWorker read|write <store> <count>\n".utf8))
    exit(2)
}
do {
    let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.lmdb])
    let store = try coordinator.addStore(type: StoreType.lmdb.name, at: URL(fileURLWithPath: arguments[2]))
    if arguments[1] == "write" {
        try ContentionModel.writeEntries(count, as: "writer", into: store)
        print("wrote \(count)")
    } else {
        var seen = 0
        var reads = 0
        while seen < count {
            guard case .snapshots(let snapshots) = try store.execute(StoreFetchRequest(entityName: "Entry")) else {
                exit(1)
            }
            let serials: [Int64] = snapshots.compactMap { snapshot in
                guard case .integer64(let serial)? = snapshot.values["serial"] else { return nil }
                return serial
            }.sorted()
            guard serials == Array(0..<Int64(serials.count)), serials.count >= seen else {
                FileHandle.standardError.write(Data("inconsistent read after \(seen): \(serials)\n".utf8))
                exit(1)
            }
            seen = serials.count
            reads += 1
        }
        print("read \(reads)")
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
