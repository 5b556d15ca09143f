import Foundation
import StrataConformance
import StrataPostgres
import StrataTestSupport

@testable import Strata

// The conformance worker of the PostgreSQL store: the durability checks of
// PostgresStoreConformanceTests run it in a child process against a schema of the test server.
// Run under a name ending in `-splitting-saves` (a link the negative control makes), it saves
// each object of a save in a transaction of its own, which the durability checks must catch.

/// A PostgreSQL store that commits each insert, update and deletion of a save on its own.
final class SplittingStore: ForwardingStore, @unchecked Sendable {
    // Safe: it adds nothing to its base class.
    override func save(_ changes: StoreChangeSet) throws {
        for change in changes.inserted { try base.save(StoreChangeSet(inserted: [change])) }
        for change in changes.updated { try base.save(StoreChangeSet(updated: [change])) }
        for deletion in changes.deleted { try base.save(StoreChangeSet(deleted: [deletion])) }
        if let userInfo = changes.userInfo { try base.save(StoreChangeSet(userInfo: userInfo)) }
    }
}

let splitsSaves = CommandLine.arguments[0].hasSuffix("-splitting-saves")
let storeType =
    splitsSaves
    ? StoreType(
        name: StoreType.postgres.name, open: { SplittingStore(try StoreType.postgres.open($0)) },
        readMetadata: StoreType.postgres.readMetadata, writeMetadata: StoreType.postgres.writeMetadata,
        destroy: StoreType.postgres.destroy)
    : StoreType.postgres
exit(ConformanceWorker.run(storeType: storeType, arguments: Array(CommandLine.arguments.dropFirst())))
