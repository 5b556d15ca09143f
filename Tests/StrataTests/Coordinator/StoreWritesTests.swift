import Foundation
import Strata
import StrataTestSupport
import Testing

/// `storeWrites`: one element per save and per in-store batch request, naming the store
/// written; nothing for a save that fails.
@Suite struct StoreWritesTests {
    @Test func savesAndBatchRequestsAreAnnouncedWithTheirStore() async throws {
        let coordinator = try PersistentStoreCoordinator(model: PhotoLibraryModel.make())
        let store = try await coordinator.addStore(type: StoreType.inMemory.name)
        let writes = coordinator.storeWrites
        let context = ManagedObjectContext(coordinator: coordinator)
        try PhotoLibraryModel.insertPhotos(0..<2, into: context)
        _ = try coordinator.execute(BatchDeleteRequest(entityName: "Photo"))
        var received: [String] = []
        for await identifier in writes {
            received.append(identifier)
            if received.count == 2 { break }
        }
        #expect(received == [store.identifier, store.identifier])
    }

    @Test func aRefusedSaveIsNotAnnounced() async throws {
        let coordinator = try PersistentStoreCoordinator(model: PhotoLibraryModel.make())
        let store = try await coordinator.addStore(
            type: StoreType.inMemory.name, options: StoreOptions(isReadOnly: true))
        let writes = coordinator.storeWrites
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(throws: (any Error).self) { try PhotoLibraryModel.insertPhotos(0..<1, into: context) }
        let other = try await coordinator.addStore(type: StoreType.inMemory.name)
        let fresh = ManagedObjectContext(coordinator: coordinator)
        try fresh.performAndWait {
            let photo = try fresh.insertNewObject(forEntityName: "Photo")
            fresh.assign(photo, to: other)
            try fresh.save()
        }
        var iterator = writes.makeAsyncIterator()
        #expect(await iterator.next() == other.identifier)
        #expect(store.identifier != other.identifier)
    }
}
