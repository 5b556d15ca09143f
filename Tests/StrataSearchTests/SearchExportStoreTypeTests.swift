import Foundation
import Strata
import StrataPostgres
import StrataSearch
import StrataStores
import StrataTestSupport
import Testing

/// The exporter reading every store type through the coordinator and the history alone: hits
/// whose URIs resolve to the objects, updates and deletions followed.
@Suite struct SearchExportStoreTypeTests {
    static let types: [StoreType] = StoreType.builtInFileTypes + [.inMemory, .postgres]

    @Test(arguments: types)
    func hitsResolveToTheirObjectsAndFollowTheStoresHistory(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let url: URL? =
            switch type {
            case .postgres: PostgresTestServer.storeURL(schema: PostgresTestServer.uniqueSchema("search"))
            case .inMemory: nil
            default: folder.file("Photos.\(type.name)")
            }
        let coordinator = try PersistentStoreCoordinator(model: PhotoLibraryModel.make(), storeTypes: [type])
        let store = try coordinator.addStore(
            type: type.name, at: url, options: StoreOptions(tracksPersistentHistory: true))
        let context = ManagedObjectContext(coordinator: coordinator)
        let ids = try PhotoLibraryModel.insertPhotos(0..<5, into: context)
        let exporter = try SearchIndexExporter(
            store: store, coordinator: coordinator, indexURL: folder.file("Photos.search"), batchSize: 2)
        try exporter.exportPendingChanges()
        let hit = try #require(try exporter.search("\"caption 3\"").first)
        let id = try #require(coordinator.objectID(forURIRepresentation: hit.uri))
        #expect(id == ids[3])
        try context.performAndWait {
            #expect(try context.existingObject(with: id).value(forKey: "title") == .string("Photo 3"))
            try context.existingObject(with: ids[0]).setValue(.string("Harbour"), forKey: "title")
            try context.delete(context.existingObject(with: ids[1]))
            try context.save()
        }
        try exporter.exportPendingChanges()
        #expect(try exporter.search("harbour").map(\.uri) == [ids[0].uriRepresentation])
        #expect(try exporter.search("\"caption 1\"").isEmpty)
        #expect(try exporter.index.count() == 4)
    }
}
