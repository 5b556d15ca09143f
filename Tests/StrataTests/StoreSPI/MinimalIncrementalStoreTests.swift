import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// A third-party incremental store needs eight members; every other has a default that works.
@Suite struct MinimalIncrementalStoreTests {
    typealias Stack = StripedSaveTests.Stack

    /// A store implementing only the members without a default: the seven of
    /// ``HandsReadsToBase`` and the two-phase save, each handed to an in-memory store.
    final class MinimalStore: HandsReadsToBase {
        let base: any IncrementalStore

        init(_ base: any IncrementalStore) { self.base = base }

        func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
            try base.save(changes, committingAfter: decision)
        }
    }

    static func minimal(_ configuration: String) throws -> MinimalStore {
        MinimalStore(try InMemoryStore.open(model: Stack.model, configuration: configuration))
    }

    @Test func theDefaultsReadTheMetadataAndDeclareNothing() throws {
        let store = try Self.minimal("Shelf")
        #expect(store.typeName == StoreType.inMemory.name)
        #expect(store.identifier == store.base.identifier)
        #expect(store.url == nil)
        #expect(store.capabilities == [])
        #expect(store.predicateFeatures == [])
        #expect(try store.openGeneration() == nil)
    }

    @Test func aContextSavesAndFetchesThroughIt() throws {
        let store = try Self.minimal("Shelf")
        let coordinator = try PersistentStoreCoordinator(model: Stack.model)
        try coordinator.add(store)
        let context = ManagedObjectContext(coordinator: coordinator)
        let titles = try context.performAndWait {
            for title in ["Emma", "Dune", "Ulysses"] {
                try context.insertNewObject(forEntityName: "Book").setValue(.string(title), forKey: "title")
            }
            try context.save()
            var request = FetchRequest(entityName: "Book")
            // The store declares no predicate syntax: the core evaluates it.
            request.predicate = try FetchPredicate(format: "title BEGINSWITH[c] %@ OR title == %@", "e", "Dune")
            request.sortDescriptors = [FetchSortDescriptor("title")]
            return try context.fetch(request).map { try $0.value(forKey: "title") }
        }
        #expect(titles == ["Dune", "Emma"])
    }

    @Test func itTakesPartInASaveAcrossStores() throws {
        let folder = try TemporaryDirectory()
        let shelf = try Self.minimal("Shelf")
        let pad = try StoreType.jsonFile().open(
            StoreOpenRequest(model: Stack.model, configurationName: "Pad", url: folder.file("pad.json")))
        let coordinator = try PersistentStoreCoordinator(model: Stack.model, storeTypes: [.jsonFile()])
        try coordinator.add(shelf)
        try coordinator.add(pad)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Book").setValue("Dune", forKey: "title")
            try context.insertNewObject(forEntityName: "Note").setValue("spice", forKey: "text")
            try context.save()
        }
        #expect(try StripedSaveWithoutFilesTests.count("Book", in: shelf) == 1)
        #expect(try StripedSaveWithoutFilesTests.count("Note", in: pad) == 1)
        #expect(pad.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(1))
    }
}

/// A test store whose required members but its save are `base`'s.
protocol HandsReadsToBase: IncrementalStore {
    var base: any IncrementalStore { get }
}

extension HandsReadsToBase {
    var configurationName: String? { base.configurationName }
    var options: StoreOptions { base.options }
    var metadata: StoreMetadata { base.metadata }
    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult { try base.execute(request) }
    func snapshot(for objectID: ObjectID) throws -> Snapshot? { try base.snapshot(for: objectID) }
    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try base.relatedObjectIDs(of: objectID, relationship: relationship)
    }
    func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        try base.permanentIDs(forEntities: entityNames)
    }
}
