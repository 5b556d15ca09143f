import Foundation
import Strata
import StrataSQLite
import StrataSearch
import StrataStores
import StrataTestSupport
import Testing

/// The exporter keeping a search index of a store current: the first export in batches, the
/// store's history after it (updates, deletions, batch requests), a rebuild when the model
/// changes, the background queue, and the typed refusals.
@Suite struct SearchIndexExporterTests {
    static let history = StoreOptions(tracksPersistentHistory: true)

    /// A coordinator with the SQLite store `Photos.sqlite` of `folder` added with history on.
    static func library(
        in folder: TemporaryDirectory, model: ManagedObjectModel = PhotoLibraryModel.make()
    ) throws -> (PersistentStoreCoordinator, any IncrementalStore, ManagedObjectContext) {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite])
        let store = try coordinator.addStore(
            type: StoreType.sqlite.name, at: folder.file("Photos.sqlite"), options: history)
        return (coordinator, store, ManagedObjectContext(coordinator: coordinator))
    }

    @Test func theFirstExportIndexesEveryObjectInBatchesBesideTheStore() async throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store, context) = try Self.library(in: folder)
        let ids = try PhotoLibraryModel.insertPhotos(0..<25, into: context)
        let exporter = try SearchIndexExporter(store: store, coordinator: coordinator, batchSize: 10)
        #expect(exporter.index.url.path == folder.file("Photos.sqlite.search").path)
        let updates = exporter.updates
        try exporter.exportPendingChanges()
        #expect(try exporter.index.count() == 25)
        let hit = try #require(try exporter.search("caption 7").first)
        #expect(hit.uri == ids[7].uriRepresentation)
        #expect(hit.title == "Photo 7" && hit.entityName == "Photo")
        #expect(try exporter.search("tag").isEmpty, "Tags have nothing indexed")
        var batches: [SearchIndexExporter.Update] = []
        for await update in updates {
            batches.append(update)
            if case .indexed(_, _, true) = update { break }
        }
        let sizes = batches.compactMap { update -> Int? in
            if case .indexed(let upserted, _, false) = update { return upserted }
            return nil
        }
        #expect(sizes == [10, 10, 5])
    }

    @Test func savesAfterTheExportReachTheIndexFromHistory() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store, context) = try Self.library(in: folder)
        let ids = try PhotoLibraryModel.insertPhotos(0..<3, into: context)
        let exporter = try SearchIndexExporter(store: store, coordinator: coordinator)
        try exporter.exportPendingChanges()
        try PhotoLibraryModel.insertPhotos(3..<5, into: context)
        try context.performAndWait {
            try context.existingObject(with: ids[0]).setValue(.string("Lisbon at dusk"), forKey: "title")
            try context.delete(context.existingObject(with: ids[1]))
            try context.save()
        }
        try exporter.exportPendingChanges()
        #expect(try exporter.index.count() == 4)
        #expect(try exporter.search("lisbon").map(\.uri) == [ids[0].uriRepresentation])
        #expect(try exporter.search("\"photo 0\"").isEmpty)
        #expect(try exporter.search("\"caption 1\"").isEmpty, "The deleted photo left the index")
        #expect(try exporter.search("\"caption 4\"").count == 1)
        let update = BatchUpdateRequest(
            entityName: "Photo", propertiesToUpdate: ["caption": .constant(.string("sepia"))])
        _ = try coordinator.execute(update)
        _ = try coordinator.execute(
            BatchDeleteRequest(entityName: "Photo", predicate: FetchPredicate(format: "width == 1004")))
        try exporter.exportPendingChanges()
        #expect(try exporter.search("sepia").count == 3)
        #expect(try exporter.index.count() == 3)
    }

    @Test func theIndexKeepsItsPositionAndAReopenedExporterGoesOnFromIt() throws {
        let folder = try TemporaryDirectory()
        do {
            let (coordinator, store, context) = try Self.library(in: folder)
            try PhotoLibraryModel.insertPhotos(0..<4, into: context)
            try SearchIndexExporter(store: store, coordinator: coordinator).exportPendingChanges()
            try PhotoLibraryModel.insertPhotos(4..<6, into: context)
        }
        let (coordinator, store, _) = try Self.library(in: folder)
        let indexed = Locked<[String]>([])
        let exporter = try SearchIndexExporter(store: store, coordinator: coordinator) { photo, fields in
            indexed.withLock { $0.append(fields.title) }
            return fields
        }
        try exporter.exportPendingChanges()
        #expect(indexed.withLock { $0 }.sorted() == ["Photo 4", "Photo 5"])
        #expect(try exporter.index.count() == 6)
    }

    @Test func aModelIndexingMoreAttributesOrANewVersionRebuildsTheIndex() throws {
        let folder = try TemporaryDirectory()
        do {
            let (coordinator, store, context) = try Self.library(in: folder)
            try PhotoLibraryModel.insertPhotos(0..<3, into: context)
            let exporter = try SearchIndexExporter(store: store, coordinator: coordinator)
            try exporter.exportPendingChanges()
            #expect(try exporter.search("1002").isEmpty)
        }
        do {
            let (coordinator, store, _) = try Self.library(
                in: folder, model: PhotoLibraryModel.make(indexingWidth: true))
            let exporter = try SearchIndexExporter(store: store, coordinator: coordinator)
            try exporter.exportPendingChanges()
            #expect(try exporter.search("1002").count == 1, "The width is indexed now")
        }
        let (coordinator, store, _) = try Self.library(in: folder, model: PhotoLibraryModel.make(indexingWidth: true))
        let exporter = try SearchIndexExporter(store: store, coordinator: coordinator, version: 2) { _, fields in
            var fields = fields
            fields.keywords = ["archive"]
            return fields
        }
        try exporter.exportPendingChanges()
        #expect(try exporter.search("archive").count == 3)
    }

    @Test func deletingTheIndexExportsEverythingAgain() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store, context) = try Self.library(in: folder)
        try PhotoLibraryModel.insertPhotos(0..<3, into: context)
        let exporter = try SearchIndexExporter(store: store, coordinator: coordinator)
        try exporter.exportPendingChanges()
        try exporter.deleteIndex()
        #expect(try exporter.index.count() == 0)
        try exporter.exportPendingChanges()
        #expect(try exporter.index.count() == 3)
    }

    @Test func startedItFollowsTheSavesOnItsQueue() async throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store, context) = try Self.library(in: folder)
        try PhotoLibraryModel.insertPhotos(0..<2, into: context)
        let exporter = try SearchIndexExporter(store: store, coordinator: coordinator)
        let updates = exporter.updates
        exporter.startIndexing()
        #expect(exporter.isIndexing)
        try PhotoLibraryModel.insertPhotos(2..<3, into: context)
        let deadline = ContinuousClock.now + .seconds(30)
        for await update in updates {
            if case .failed(let error) = update { Issue.record("\(error)") }
            if try exporter.index.count() == 3 || ContinuousClock.now > deadline { break }
        }
        #expect(try exporter.search("\"photo 2\"").count == 1)
        exporter.stopIndexing()
        #expect(!exporter.isIndexing)
        try PhotoLibraryModel.insertPhotos(3..<4, into: context)
        try await Task.sleep(for: .milliseconds(200))
        #expect(try exporter.index.count() == 3, "A stopped exporter leaves the index as it was")
    }

    @Test func aStoreWithoutHistoryIsRefusedNamingIt() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(model: PhotoLibraryModel.make(), storeTypes: [.sqlite])
        let url = folder.file("Photos.sqlite")
        let store = try coordinator.addStore(type: StoreType.sqlite.name, at: url)
        #expect {
            try SearchIndexExporter(store: store, coordinator: coordinator)
        } throws: { error in
            let error = error as? SearchError
            return error?.code == .historyRequired && error?.message.contains(url.path) == true
                && error?.message.contains("tracksPersistentHistory") == true
        }
    }

    @Test func aStoreNotAddedOrWithoutAFileNeedsWhatIsMissing() throws {
        let folder = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(model: PhotoLibraryModel.make())
        let memory = try coordinator.addStore(type: StoreType.inMemory.name, options: Self.history)
        #expect {
            try SearchIndexExporter(store: memory, coordinator: coordinator)
        } throws: { error in
            (error as? SearchError)?.code == .invalidStore
                && (error as? SearchError)?.message.contains("indexURL") == true
        }
        let other = try PersistentStoreCoordinator(model: PhotoLibraryModel.make())
        #expect {
            try SearchIndexExporter(store: memory, coordinator: other, indexURL: folder.file("memory.search"))
        } throws: { error in
            (error as? SearchError)?.code == .invalidStore
        }
        let description = PersistentStoreDescription(type: StoreType.sqlite.name, url: folder.file("Absent.sqlite"))
        #expect {
            try SearchIndexExporter(forStoreWith: description, coordinator: coordinator)
        } throws: { error in
            (error as? SearchError)?.code == .invalidStore
                && (error as? SearchError)?.message.contains("Absent") == true
        }
    }

    @Test func theFieldsHookPutsEachPhotosTagsOnItAndLeavesOutWhatItRefuses() throws {
        let folder = try TemporaryDirectory()
        var description = PersistentStoreDescription.sqlite(at: folder.file("Photos.sqlite"))
        description.tracksPersistentHistory = true
        let coordinator = try PersistentStoreCoordinator(model: PhotoLibraryModel.make(), storeTypes: [.sqlite])
        _ = try coordinator.addStore(description)
        let context = ManagedObjectContext(coordinator: coordinator)
        let (taj, hidden) = try context.performAndWait {
            let india = try context.insertNewObject(forEntityName: "Tag")
            try india.setValue(.string("India"), forKey: "name")
            let dawn = try context.insertNewObject(forEntityName: "Tag")
            try dawn.setValue(.string("Dawn"), forKey: "name")
            let taj = try context.insertNewObject(forEntityName: "Photo")
            try taj.setValue(.string("Taj Mahal"), forKey: "title")
            try taj.setObjects([india, dawn], forKey: "tags")
            let hidden = try context.insertNewObject(forEntityName: "Photo")
            try hidden.setValue(.string("Private"), forKey: "title")
            try hidden.setObjects([india], forKey: "tags")
            try context.save()
            return (taj.objectID, hidden.objectID)
        }
        let exporter = try SearchIndexExporter(forStoreWith: description, coordinator: coordinator) { photo, fields in
            guard case .string(let title) = try photo.value(forKey: "title"), title != "Private" else { return nil }
            var fields = fields
            fields.keywords = try photo.objects(forKey: "tags").compactMap {
                guard case .string(let name) = try $0.value(forKey: "name") else { return nil }
                return name
            }
            return fields
        }
        try exporter.exportPendingChanges()
        #expect(try exporter.search("india").map(\.uri) == [taj.uriRepresentation])
        #expect(try exporter.search("dawn mahal").map(\.uri) == [taj.uriRepresentation])
        #expect(try exporter.search("private").isEmpty)
        try context.performAndWait {
            try context.existingObject(with: hidden).setValue(.string("Shared"), forKey: "title")
            try context.save()
        }
        try exporter.exportPendingChanges()
        #expect(Set(try exporter.search("india").map(\.uri)) == [taj.uriRepresentation, hidden.uriRepresentation])
    }

    @Test func aHookThatThrowsIsAnExportErrorNamingTheObjectAndKeepsWhatWasIndexed() throws {
        struct Refused: Error {}
        let folder = try TemporaryDirectory()
        let (coordinator, store, context) = try Self.library(in: folder)
        let ids = try PhotoLibraryModel.insertPhotos(0..<4, into: context)
        let exporter = try SearchIndexExporter(store: store, coordinator: coordinator, batchSize: 2) { photo, fields in
            if photo.objectID == ids[3] { throw Refused() }
            return fields
        }
        #expect {
            try exporter.exportPendingChanges()
        } throws: { error in
            let error = error as? SearchError
            return error?.code == .export && error?.message.contains(ids[3].uriRepresentation.absoluteString) == true
        }
        #expect(try exporter.index.count() == 2, "The first batch stays indexed")
    }
}
