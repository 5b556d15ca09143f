import Foundation
import Testing

@testable import Strata

/// Fetching across two in-memory stores under two configurations, with pending changes.
@Suite struct ManagedObjectContextFetchTests {
    /// Authors and books in configuration "Shelf", notes in "Pad"; two in-memory stores.
    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let shelf: any IncrementalStore
        let pad: any IncrementalStore
        let context: ManagedObjectContext

        /// Besides "Shelf", "Pad" and "Everything": "Loose" holds books alone, "Authors" authors
        /// alone (for ``FetchPlanTests``).
        static let model = ManagedObjectModel {
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
            ConfigurationDescription("Pad", entities: ["Note"])
            ConfigurationDescription("Everything", entities: ["Author", "Book", "Comic", "Note"])
            ConfigurationDescription("Loose", entities: ["Book", "Comic"])
            ConfigurationDescription("Authors", entities: ["Author"])
        }

        init() throws {
            coordinator = try PersistentStoreCoordinator(model: Self.model)
            shelf = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Shelf")
            pad = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Pad")
            context = ManagedObjectContext(coordinator: coordinator)
        }

        @discardableResult
        func insert(_ entity: String, _ values: [String: AttributeValue]) throws -> ManagedObject {
            let object = try context.insertNewObject(forEntityName: entity)
            for (key, value) in values { try object.setValue(value, forKey: key) }
            return object
        }

        func strings(_ request: FetchRequest<ManagedObject>, _ key: String) throws -> [String] {
            try context.fetch(request).map { try $0.value(forKey: key).get(String.self) ?? "-" }
        }
    }

    private func request(
        _ entity: String, _ format: String? = nil, sortedBy key: String? = nil
    ) throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest<ManagedObject>(entityName: entity)
        request.predicate = try format.map { try FetchPredicate(format: $0) }
        request.sortDescriptors = key.map { [FetchSortDescriptor($0)] } ?? []
        return request
    }

    @Test func newObjectsGoToTheFirstStoreHoldingTheirEntity() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            let note = try stack.insert("Note", ["text": "buy milk"])
            try stack.context.save()
            #expect(book.objectID.storeIdentifier == stack.shelf.identifier)
            #expect(note.objectID.storeIdentifier == stack.pad.identifier)
            #expect(try stack.shelf.snapshot(for: book.objectID)?.values["title"] == "Dune")
            #expect(try stack.pad.snapshot(for: note.objectID)?.values["text"] == "buy milk")
        }
    }

    @Test func assignedObjectsGoToTheirStoreAndAFetchMergesBothStores() throws {
        let stack = try Stack()
        let everything = try stack.coordinator.addStore(type: StoreType.inMemory.name, configuration: "Everything")
        try stack.context.performAndWait {
            try stack.insert("Note", ["text": "b"])
            let assigned = try stack.insert("Note", ["text": "a"])
            stack.context.assign(assigned, to: everything)
            try stack.insert("Note", ["text": "c"])
            try stack.context.save()
            #expect(assigned.objectID.storeIdentifier == everything.identifier)
            #expect(try stack.strings(request("Note", sortedBy: "text"), "text") == ["a", "b", "c"])
            var limited = try request("Note", sortedBy: "text")
            limited.fetchOffset = 1
            limited.fetchLimit = 1
            #expect(try stack.strings(limited, "text") == ["b"])
            var onlyEverything = try request("Note", sortedBy: "text")
            onlyEverything.affectedStores = [everything]
            #expect(try stack.strings(onlyEverything, "text") == ["a"])
        }
    }

    @Test func aLimitOfZeroIsNoLimitWithAnOffsetAndPendingChanges() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            for text in ["a", "b", "c", "d"] { try stack.insert("Note", ["text": .string(text)]) }
            try stack.context.save()
            var request = try request("Note", sortedBy: "text")
            request.fetchLimit = 0
            #expect(try stack.strings(request, "text") == ["a", "b", "c", "d"])
            #expect(try stack.context.count(for: request) == 4)
            request.fetchOffset = 1
            try stack.insert("Note", ["text": "e"])
            #expect(try stack.strings(request, "text") == ["b", "c", "d", "e"])
        }
    }

    @Test func assigningToAStoreWithoutTheEntityFailsTheSave() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            stack.context.assign(book, to: stack.pad)
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .noStore)
            #expect(error.message.contains("Book"))
            #expect(try stack.shelf.execute(StoreFetchRequest(entityName: "Book", resultType: .count)) == .count(0))
        }
    }

    @Test func aRelationshipAcrossStoresIsRejectedNamingBothObjects() throws {
        let stack = try Stack()
        let everything = try stack.coordinator.addStore(type: StoreType.inMemory.name, configuration: "Everything")
        try stack.context.performAndWait {
            let author = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Dune"])
            try book.setObject(author, forKey: "author")
            stack.context.assign(author, to: everything)
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .crossStoreRelationship)
            #expect(
                error.message.contains(author.objectID.uriString) || error.message.contains(book.objectID.uriString))
            #expect(error.message.contains("Book.author") || error.message.contains("Author.books"))
        }
    }

    @Test func pendingInsertsChangesAndDeletionsCountInFetches() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            for (title, pages) in [("Alpha", 100), ("Beta", 200), ("Gamma", 300)] {
                try stack.insert("Book", ["title": .string(title), "pages": .integer32(Int32(pages))])
            }
            try stack.context.save()
            let books = try stack.context.fetch(request("Book", sortedBy: "title"))
            try books[0].setValue(.integer32(50), forKey: "pages")  // Alpha no longer matches
            try stack.context.delete(books[2])  // Gamma deleted
            try stack.insert("Book", ["title": "Delta", "pages": .integer32(400)])  // new match
            let matching = try request("Book", "pages >= 150", sortedBy: "title")
            #expect(try stack.strings(matching, "title") == ["Beta", "Delta"])
            #expect(try stack.context.count(for: matching) == 2)
            var committedOnly = matching
            committedOnly.includesPendingChanges = false
            #expect(try stack.strings(committedOnly, "title") == ["Beta", "Gamma"])
        }
    }

    @Test func subEntitiesAreIncludedUnlessExcluded() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            try stack.insert("Book", ["title": "Dune"])
            try stack.insert("Comic", ["title": "Tintin", "artist": "Hergé"])
            try stack.context.save()
            #expect(try stack.strings(request("Book", sortedBy: "title"), "title") == ["Dune", "Tintin"])
            var own = try request("Book")
            own.includesSubentities = false
            #expect(try stack.strings(own, "title") == ["Dune"])
        }
    }

    @Test func resultTypesObjectIDsDictionariesAndCount() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Dune", "pages": .integer32(412)])
            try book.setObject(ada, forKey: "author")
            try stack.context.save()
            var request = try request("Book")
            #expect(try stack.context.fetchObjectIDs(request) == [book.objectID])
            request.propertiesToFetch = ["title", "author"]
            let rows = try stack.context.fetchDictionaries(request)
            #expect(rows == [["title": "Dune", "author": .objectID(ada.objectID)]])
            #expect(try stack.context.count(for: request) == 1)
        }
    }

    @Test func aBatchedFetchLoadsValuesOnlyForTheBatchesUsed() throws {
        let stack = try Stack()
        let ids: [ObjectID] = try stack.context.performAndWait {
            for index in 0..<10 {
                try stack.insert("Book", ["title": .string("B\(index)"), "pages": .integer32(Int32(index))])
            }
            try stack.context.save()
            return try stack.context.fetchObjectIDs(request("Book"))
        }
        let reader = ManagedObjectContext(coordinator: stack.coordinator)
        try reader.performAndWait {
            var batched = try request("Book", sortedBy: "pages")
            batched.fetchBatchSize = 4
            let results = try reader.fetch(batched)
            #expect(results.count == 10)
            #expect(reader.snapshotCache.isEmpty)
            #expect(try results[5].value(forKey: "title") == "B5")
            #expect(Set(reader.snapshotCache.keys).count == 3)  // batch 4..<8, minus the fired one
            #expect(Set(ids).isSuperset(of: reader.snapshotCache.keys))
        }
    }

    @Test func resultsGiveTheContextsObjectEvenAfterTheyLeftIt() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            for title in ["A", "B"] { try stack.insert("Book", ["title": .string(title)]) }
            try stack.context.save()
            let results = try stack.context.fetch(request("Book", sortedBy: "title"))
            let first = results[0]
            #expect(first === stack.context.object(with: first.objectID))
            stack.context.reset()
            let again = results[0]
            #expect(again !== first)
            #expect(again.objectID == first.objectID)
            #expect(again.managedObjectContext === stack.context)
            #expect(again === stack.context.object(with: first.objectID))
            #expect(try again.value(forKey: "title") == "A")
        }
    }

    @Test func aBatchedFetchReleasesTheObjectsItGaveAfterAReset() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            for index in 0..<10 {
                try stack.insert("Book", ["title": .string("B\(index)"), "pages": .integer32(Int32(index))])
            }
            try stack.context.save()
            stack.context.reset()
            var batched = try request("Book", sortedBy: "pages")
            batched.fetchBatchSize = 4
            let results = try stack.context.fetch(batched)
            #expect(try results[1].value(forKey: "title") == "B1")
            stack.context.reset()
            let again = results[1]
            #expect(try again.value(forKey: "title") == "B1")
            #expect(!again.faulted)
            #expect(try results[5].value(forKey: "title") == "B5")
            #expect(again.faulted)
        }
    }

    @Test func prefetchingLoadsRelationshipDestinations() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            for title in ["A", "B"] {
                try stack.insert("Book", ["title": .string(title)]).setObject(ada, forKey: "author")
            }
            try stack.context.save()
        }
        let reader = ManagedObjectContext(coordinator: stack.coordinator)
        try reader.performAndWait {
            var authors = try request("Author")
            authors.relationshipKeyPathsForPrefetching = ["books"]
            let ada = try #require(try reader.fetch(authors).first)
            #expect(ada.currentMembers["books"]?.count == 2)
            #expect(reader.snapshotCache.count == 2)
        }
    }

    @Test func objectsComeBackAsFaultsOrLoaded() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            try stack.insert("Note", ["text": "x"])
            try stack.context.save()
        }
        let reader = ManagedObjectContext(coordinator: stack.coordinator)
        try reader.performAndWait {
            var notes = try request("Note")
            #expect(try reader.fetch(notes).first?.isFault == true)
            reader.reset()
            notes.returnsObjectsAsFaults = false
            #expect(try reader.fetch(notes).first?.isFault == false)
        }
    }

    @Test func aPredicateAStoreCannotEvaluateIsEvaluatedInMemory() throws {
        let stack = try Stack()
        let limited = ObservedStore(
            base: try InMemoryStore.open(model: stack.coordinator.model, configuration: "Everything"),
            predicateFeatures: [])
        try stack.coordinator.add(limited)
        try stack.context.performAndWait {
            for text in ["apple", "banana", "cherry"] {
                let note = try stack.insert("Note", ["text": .string(text)])
                stack.context.assign(note, to: limited)
            }
            try stack.context.save()
            stack.context.reset()
            var request = try request("Note", "text CONTAINS 'an'", sortedBy: "text")
            request.affectedStores = [limited]
            #expect(try stack.strings(request, "text") == ["banana"])
            #expect(limited.requests.withLock { $0.allSatisfy { $0.predicate == nil } })
        }
    }

    @Test func fetchingAnEntityNoStoreHoldsIsAnError() throws {
        let stack = try Stack()
        try stack.coordinator.remove(stack.pad)
        stack.context.performAndWait {
            #expect(throws: ContextError.self) { try stack.context.fetch(request("Note")) }
            #expect(throws: ContextError.self) { try stack.context.fetch(request("Nope")) }
        }
    }
}
