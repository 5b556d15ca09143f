import Foundation
import Synchronization
import Testing

@testable import Strata

@Suite struct InMemoryStoreTests {
    static func library() throws -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32)
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
            }
            EntityDescription("Comic", parent: "Book") { AttributeDescription("artist", .string) }
            EntityDescription("Note") { AttributeDescription("text", .string) }
            ConfigurationDescription("Shelf", entities: ["Author", "Book", "Comic"])
        }
        try model.freeze()
        return model
    }

    /// Saves two authors and four books (one a comic) and returns the store and the IDs.
    private func filledStore(options: StoreOptions = StoreOptions()) throws -> (any IncrementalStore, [ObjectID]) {
        let store = try InMemoryStore.open(model: try Self.library(), configuration: "Shelf")
        let ids = try store.permanentIDs(forEntities: ["Author", "Author", "Book", "Book", "Book", "Comic"])
        let (ada, bo) = (ids[0], ids[1])
        func book(_ id: ObjectID, _ title: String, _ pages: Int32, _ author: ObjectID) -> StoreChangeSet.ObjectChange {
            .init(
                objectID: id,
                values: ["title": .string(title), "pages": .integer32(pages), "author": .objectID(author)],
                expectedVersion: 0)
        }
        try store.save(
            StoreChangeSet(inserted: [
                .init(
                    objectID: ada, values: ["name": "Ada"], toManyRelationships: ["books": [ids[2], ids[3], ids[5]]],
                    expectedVersion: 0),
                .init(
                    objectID: bo, values: ["name": "Bo"], toManyRelationships: ["books": [ids[4]]], expectedVersion: 0),
                book(ids[2], "Zebra", 120, ada), book(ids[3], "apple", 300, ada), book(ids[4], "Mango", 80, bo),
                book(ids[5], "Kite", 40, ada),
            ]))
        return (store, ids)
    }

    private func titles(_ result: StoreFetchResult) -> [String] {
        guard case .snapshots(let snapshots) = result else { return [] }
        return snapshots.map { $0.values["title"]?.get(String.self) ?? "?" }
    }

    @Test func permanentIDsAreNewAndInInputOrder() throws {
        let store = try InMemoryStore.open(model: try Self.library())
        let ids = try store.permanentIDs(forEntities: ["Book", "Author", "Book"])
        #expect(ids.map(\.entityName) == ["Book", "Author", "Book"])
        #expect(Set(ids).count == 3 && ids.allSatisfy { $0.storeIdentifier == store.identifier && !$0.isTemporary })
        #expect(Set(try store.permanentIDs(forEntities: ["Book"])).isDisjoint(with: ids))
    }

    @Test func fetchFiltersSortsAndPagesIncludingSubentities() throws {
        let (store, _) = try filledStore()
        let sorted = StoreFetchRequest(
            entityName: "Book", sortDescriptors: [FetchSortDescriptor("title", comparison: .caseInsensitive)])
        #expect(titles(try store.execute(sorted)) == ["apple", "Kite", "Mango", "Zebra"])
        var page = sorted
        page.fetchOffset = 1
        page.fetchLimit = 2
        #expect(titles(try store.execute(page)) == ["Kite", "Mango"])
        var own = sorted
        own.includesSubentities = false
        #expect(titles(try store.execute(own)) == ["apple", "Mango", "Zebra"])
        let filtered = StoreFetchRequest(
            entityName: "Book", predicate: try FetchPredicate(format: "author.name == %@ AND pages > %d", "Ada", 100),
            sortDescriptors: [FetchSortDescriptor("pages", ascending: false)])
        #expect(titles(try store.execute(filtered)) == ["apple", "Zebra"])
        var count = filtered
        count.resultType = .count
        #expect(try store.execute(count) == .count(2))
        let authors = StoreFetchRequest(
            entityName: "Author", predicate: try FetchPredicate(format: "books.@count > 1"), resultType: .objectIDs)
        guard case .objectIDs(let ids) = try store.execute(authors) else { throw StoreError(code: .io, message: "") }
        #expect(ids.count == 1 && ids.first?.entityName == "Author")
    }

    @Test func aLimitOfZeroIsNoLimit() throws {
        let (store, _) = try filledStore()
        let request = StoreFetchRequest(
            entityName: "Book", sortDescriptors: [FetchSortDescriptor("pages")], fetchLimit: 0)
        #expect(titles(try store.execute(request)) == ["Kite", "Mango", "Zebra", "apple"])
        var count = request
        count.resultType = .count
        #expect(try store.execute(count) == .count(4))
    }

    @Test func savesVersionUpdatesAndDeletes() throws {
        let (store, ids) = try filledStore()
        let zebra = try #require(try store.snapshot(for: ids[2]))
        #expect(zebra.version == 1 && zebra.values["pages"] == .integer32(120))
        var values = zebra.values
        values["pages"] = .integer32(121)
        try store.save(StoreChangeSet(updated: [.init(objectID: ids[2], values: values, expectedVersion: 1)]))
        #expect(try store.snapshot(for: ids[2])?.version == 2)
        #expect(try store.snapshot(for: ids[2])?.values["pages"] == .integer32(121))
        try store.save(StoreChangeSet(deleted: [.init(objectID: ids[4], expectedVersion: 1)]))
        #expect(try store.snapshot(for: ids[4]) == nil)
        #expect(try store.relatedObjectIDs(of: ids[0], relationship: "books") == [ids[2], ids[3], ids[5]])
    }

    @Test func staleVersionsConflictAndWriteNothing() throws {
        let (store, ids) = try filledStore()
        let fresh = StoreChangeSet.ObjectChange(objectID: ids[3], values: ["title": "Pear"], expectedVersion: 1)
        let stale = StoreChangeSet.ObjectChange(objectID: ids[2], values: ["title": "Old"], expectedVersion: 7)
        let gone = StoreChangeSet.Deletion(
            objectID: ObjectID(storeIdentifier: store.identifier, entityName: "Book", reference: .integer(999)),
            expectedVersion: 1)
        #expect {
            try store.save(StoreChangeSet(updated: [fresh, stale], deleted: [gone]))
        } throws: { error in
            guard let error = error as? StoreError, error.code == .conflict else { return false }
            return error.conflicts.map(\.storedVersion) == [1, nil] && error.message.contains("expected version 7")
        }
        #expect(try store.snapshot(for: ids[3])?.values["title"] == "apple")
    }

    @Test func badChangesAndUnknownEntitiesAreTypedErrors() throws {
        let (store, ids) = try filledStore()
        let coordinator = try PersistentStoreCoordinator(model: try Self.library())
        try coordinator.add(store)
        let cases: [(StoreChangeSet, StoreError.Code, String)] = [
            (
                StoreChangeSet(updated: [.init(objectID: ids[2], values: ["colour": "red"], expectedVersion: 1)]),
                .invalidChange, "no stored attribute or to-one relationship 'colour'"
            ),
            (
                StoreChangeSet(updated: [.init(objectID: ids[2], values: ["pages": "many"], expectedVersion: 1)]),
                .invalidChange, "'Book.pages' is Integer 32"
            ),
            (
                StoreChangeSet(updated: [.init(objectID: ids[2], values: ["author": "Ada"], expectedVersion: 1)]),
                .invalidChange, "needs an object ID"
            ),
            (
                StoreChangeSet(updated: [
                    .init(objectID: ids[2], values: [:], toManyRelationships: ["author": []], expectedVersion: 1)
                ]), .invalidChange, "no to-many relationship 'author'"
            ),
        ]
        for (changes, code, text) in cases {
            #expect {
                try coordinator.save(changes, to: store)
            } throws: { error in
                (error as? StoreError)?.code == code && (error as? StoreError)?.message.contains(text) == true
            }
        }
        #expect(throws: StoreError.self) { try store.execute(StoreFetchRequest(entityName: "Note")) }
        #expect(throws: StoreError.self) { try store.permanentIDs(forEntities: ["Ghost"]) }
        #expect(throws: StoreError.self) { try store.relatedObjectIDs(of: ids[2], relationship: "author") }
    }

    @Test func readOnlyStoresRefuseSaves() throws {
        let store = try InMemoryStore.open(model: try Self.library(), options: StoreOptions(isReadOnly: true))
        #expect {
            try store.save(StoreChangeSet())
        } throws: { error in
            (error as? StoreError)?.code == .readOnly
        }
    }

    @Test func metadataDescribesTheStore() throws {
        let model = try Self.library()
        let store = try InMemoryStore.open(model: model, configuration: "Shelf")
        #expect(store.typeName == "InMemory" && store.url == nil && store.configurationName == "Shelf")
        #expect(store.metadata.storeIdentifier == store.identifier)
        #expect(model.isConfiguration("Shelf", compatibleWithStoreMetadata: store.metadata))
    }

    @Test func concurrentSavesAndFetchesStayConsistent() async throws {
        let store = try InMemoryStore.open(model: try Self.library())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        let id = try store.permanentIDs(forEntities: ["Note"])[0]
                        try store.save(
                            StoreChangeSet(inserted: [
                                .init(objectID: id, values: ["text": .string("\(task)-\(index)")], expectedVersion: 0)
                            ]))
                        _ = try store.execute(StoreFetchRequest(entityName: "Note", resultType: .count))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.execute(StoreFetchRequest(entityName: "Note", resultType: .count)) == .count(200))
    }
}
