import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// The coordinator's migration carries every object, relationship and metadata key between
/// every ordered pair of built-in store types.
@Suite struct StoreMigrationPairTests {
    static let types = ["InMemory", "SQLite", "LMDB", "XML", "Binary"]
    static let pairs = types.flatMap { from in types.filter { $0 != from }.map { (from, $0) } }

    @Test(arguments: pairs)
    func migrationCarriesTheWholeGraph(from sourceType: String, to destinationType: String) throws {
        let directory = try TemporaryDirectory()
        let model = TravelGraph.model()
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        let sourceURL = sourceType == "InMemory" ? nil : directory.file("source.store")
        let source = try coordinator.addStore(type: sourceType, at: sourceURL)
        try TravelGraph.insert(into: ManagedObjectContext(coordinator: coordinator))
        try coordinator.setUserInfo(["guide": .string("travel"), "edition": .integer64(3)], for: source)
        let expected = try TravelGraph.summary(of: ManagedObjectContext(coordinator: coordinator))
        #expect(expected.count == 6)

        let destinationURL = destinationType == "InMemory" ? nil : directory.file("destination.store")
        let moved = try coordinator.migratePersistentStore(source, to: destinationURL, type: destinationType)
        #expect(moved.typeName == destinationType)
        #expect(moved.identifier == source.identifier)
        #expect(moved.metadata.userInfo == ["guide": .string("travel"), "edition": .integer64(3)])
        #expect(try TravelGraph.summary(of: ManagedObjectContext(coordinator: coordinator)) == expected)

        guard let destinationURL else { return }
        #expect(try StoreType.builtInFileType(ofFileAt: destinationURL).name == destinationType)
        try coordinator.remove(moved)
        let reopened = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
        try reopened.addStore(type: destinationType, at: destinationURL)
        #expect(try TravelGraph.summary(of: ManagedObjectContext(coordinator: reopened)) == expected)
    }
}
