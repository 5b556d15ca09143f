import Foundation
import Testing

@testable import Strata

/// An atomic store whose "file" is a shared box, so the adapter's load, write and failure
/// handling can be watched from outside. Its URL is its own, since a writable store locks it.
private final class BoxFile: AtomicStore {
    let contents = Locked<AtomicStoreContents?>(nil)
    let failWrites = Locked(false)
    let url: URL? = FileManager.default.temporaryDirectory.appendingPathComponent("box-\(UUID().uuidString).store")
    var typeName: String { "Box" }
    var capabilities: StoreCapabilities { [] }

    func load() throws -> AtomicStoreContents? { contents.withLock { $0 } }

    func write(_ new: AtomicStoreContents) throws {
        if failWrites.withLock({ $0 }) { throw StoreError(code: .io, message: "The disk is full.") }
        contents.withLock { $0 = new }
    }
}

@Suite struct AtomicStoreAdapterTests {
    @Test func aReopenedStoreHasWhatWasSaved() throws {
        let file = BoxFile()
        let model = try InMemoryStoreTests.library()
        // The first store goes away before the second opens: a writable store locks its file.
        let (identifier, id) = try {
            let first = try file.incrementalStore(model: model)
            let id = try first.permanentIDs(forEntities: ["Note"])[0]
            try first.save(
                StoreChangeSet(inserted: [.init(objectID: id, values: ["text": "kept"], expectedVersion: 0)]))
            return (first.identifier, id)
        }()
        let saved = try #require(file.contents.withLock { $0 })
        #expect(saved.nodes.map(\.snapshot.objectID) == [id] && saved.nextReference == 2)

        let second = try file.incrementalStore(model: model)
        #expect(second.identifier == identifier)
        #expect(try second.snapshot(for: id)?.values["text"] == "kept")
        #expect(try second.permanentIDs(forEntities: ["Note"])[0] != id)
    }

    @Test func aFailedWriteChangesNothing() throws {
        let file = BoxFile()
        let store = try file.incrementalStore(model: try InMemoryStoreTests.library())
        let id = try store.permanentIDs(forEntities: ["Note"])[0]
        file.failWrites.withLock { $0 = true }
        #expect {
            try store.save(
                StoreChangeSet(inserted: [.init(objectID: id, values: ["text": "lost"], expectedVersion: 0)]))
        } throws: { error in
            (error as? StoreError)?.message == "The disk is full."
        }
        #expect(try store.snapshot(for: id) == nil)
        #expect(file.contents.withLock { $0 } == nil)
    }

    @Test func aStoreWrittenWithAnotherModelIsRefused() throws {
        let file = BoxFile()
        let written = StoreMetadata(storeType: "Box", model: try InMemoryStoreTests.library())
        file.contents.withLock { $0 = AtomicStoreContents(metadata: written) }
        let changed = ManagedObjectModel {
            EntityDescription("Note") { AttributeDescription("body", .string) }
        }
        #expect {
            try file.incrementalStore(model: changed)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .incompatibleModel && error.message.contains("'\(file.url?.path ?? "")'")
                && error.message.contains("Entity 'Note' has changed")
        }
    }

    @Test func countsHonourOffsetAndLimitWithoutAPredicate() throws {
        let store = try BoxFile().incrementalStore(model: try InMemoryStoreTests.library())
        let ids = try store.permanentIDs(forEntities: Array(repeating: "Note", count: 5))
        try store.save(
            StoreChangeSet(inserted: ids.map { .init(objectID: $0, values: ["text": "n"], expectedVersion: 0) }))
        func count(offset: Int, limit: Int?) throws -> Int? {
            let request = StoreFetchRequest(
                entityName: "Note", fetchOffset: offset, fetchLimit: limit, resultType: .count)
            guard case .count(let count) = try store.execute(request) else { return nil }
            return count
        }
        #expect(try count(offset: 0, limit: nil) == 5)
        #expect(try count(offset: 2, limit: nil) == 3)
        #expect(try count(offset: 1, limit: 2) == 2)
        #expect(try count(offset: 7, limit: 2) == 0)
        guard
            case .objectIDs(let listed) = try store.execute(
                StoreFetchRequest(entityName: "Note", resultType: .objectIDs))
        else { throw StoreError(code: .corrupt, message: "no IDs") }
        #expect(listed == ids)
    }

    @Test func itsSnapshotsStayOutOfTheRowCacheAndFaultsReadTheStoresLatest() throws {
        let coordinator = try PersistentStoreCoordinator(model: try InMemoryStoreTests.library())
        try coordinator.addStore(type: StoreType.inMemory.name)
        let writer = ManagedObjectContext(coordinator: coordinator)
        let id = try writer.performAndWait {
            let note = try writer.insertNewObject(forEntityName: "Note")
            try note.setValue("first", forKey: "text")
            try writer.save()
            return note.objectID
        }
        let reader = ManagedObjectContext(coordinator: coordinator)
        let (count, text) = try reader.performAndWait {
            (
                try reader.fetch(FetchRequest<ManagedObject>(entityName: "Note")).count,
                try reader.object(with: id).value(forKey: "text")
            )
        }
        #expect(count == 1 && text == "first")
        #expect(coordinator.rowCache.snapshot(for: id, maximumAge: nil) == nil)
        try writer.performAndWait {
            try writer.object(with: id).setValue("second", forKey: "text")
            try writer.save()
        }
        let later = ManagedObjectContext(coordinator: coordinator)
        #expect(try later.performAndWait { try later.object(with: id).value(forKey: "text") } == "second")
    }
}
