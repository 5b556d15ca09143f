import Foundation
import Logging
import StrataTestSupport
import Testing

@testable import Strata

/// The coordinator logs to the logger the app gives it: stores opened and closed, migrations,
/// and save conflicts its contexts settle and retry.
@Suite struct CoordinatorLoggingTests {
    let log = CapturedLog()

    private func coordinator() throws -> PersistentStoreCoordinator {
        let model = ManagedObjectModel {
            EntityDescription("Note") { AttributeDescription("text", .string) }
        }
        return try PersistentStoreCoordinator(model: model, logger: log.logger())
    }

    @Test func openingClosingAndMigratingAStoreAreLoggedWithTheStore() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try coordinator()
        coordinator.register(.jsonFile())
        let store = try coordinator.addStore(type: StoreType.inMemory.name)
        let opened = try #require(log.lines("Store opened").first)
        #expect(opened.level == .info)
        #expect(opened.metadata["store.type"] == "InMemory" && opened.metadata["store.identifier"] == store.identifier)

        let url = folder.file("notes.json")
        let moved = try coordinator.migratePersistentStore(store, to: url, type: "JSON")
        #expect(log.lines("Migrating store").first?.metadata["migration.to"]?.contains(url.path) == true)
        #expect(log.lines("Store migrated").first?.metadata["migration.duration"] != nil)
        #expect(log.lines("Store closed").first?.metadata["store.type"] == "InMemory")

        try coordinator.remove(moved)
        #expect(log.lines("Store closed").last?.metadata["store.url"] == url.path)
    }

    @Test func aSettledConflictIsLoggedAsItIsRetried() throws {
        let coordinator = try coordinator()
        try coordinator.addStore(.inMemory())
        let seed = ManagedObjectContext(coordinator: coordinator)
        let id = try seed.performAndWait {
            let note = try seed.insertNewObject(forEntityName: "Note")
            try seed.save()
            return note.objectID
        }
        let (first, second) = (
            ManagedObjectContext(coordinator: coordinator), ManagedObjectContext(coordinator: coordinator)
        )
        for context in [first, second] { try context.performAndWait { _ = try context.existingObject(with: id) } }
        for (context, text) in [(first, "first"), (second, "second")] {
            try context.performAndWait {
                context.mergePolicy = .overwrite
                try context.existingObject(with: id).setValue(.string(text), forKey: "text")
                try context.save()
            }
        }
        let retried = try #require(log.lines("Save conflict settled by the merge policy; saving again").first)
        #expect(retried.level == .notice && retried.metadata["conflicts"] == "1" && retried.metadata["attempt"] == "1")
    }

    @Test func aCoordinatorGivenNoLoggerLogsNothingAnywhere() throws {
        let coordinator = try PersistentStoreCoordinator(model: ManagedObjectModel())
        #expect(coordinator.logger.logLevel == .critical)
        #expect(log.lines.isEmpty)
    }
}
