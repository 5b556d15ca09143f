import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// A migration that fails leaves no destination behind and the source as it was, still added.
@Suite struct StoreMigrationFailureTests {
    @Test(arguments: ["SQLite", "LMDB", "XML", "Binary"])
    func aFailedSaveRemovesTheDestination(from sourceType: String) throws {
        let directory = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(
            model: TravelGraph.model(),
            storeTypes: StoreType.builtInFileTypes + [.jsonFile(name: "Failing", failure: .afterWriting)])
        let sourceURL = directory.file("source.store")
        let source = try coordinator.addStore(type: sourceType, at: sourceURL)
        try TravelGraph.insert(into: ManagedObjectContext(coordinator: coordinator))
        let expected = try TravelGraph.summary(of: ManagedObjectContext(coordinator: coordinator))
        try coordinator.remove(source)
        let before = try Data(contentsOf: sourceURL)
        let reopened = try coordinator.addStore(type: sourceType, at: sourceURL)

        let destination = directory.file("destination.json")
        let error = try #require(throws: StoreError.self) {
            try coordinator.migratePersistentStore(reopened, to: destination, type: "Failing")
        }
        #expect(error.code == .migrationFailed)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(coordinator.stores.map(\.typeName) == [sourceType])
        #expect(try TravelGraph.summary(of: ManagedObjectContext(coordinator: coordinator)) == expected)
        try coordinator.remove(reopened)
        #expect(try Data(contentsOf: sourceURL) == before)
    }
}
