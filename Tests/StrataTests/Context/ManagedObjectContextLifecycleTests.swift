import Foundation
import Testing

@testable import Strata

/// The lifecycle hooks a subclass overrides: awakeFromInsert, awakeFromFetch, willSave and didSave.
@Suite struct ManagedObjectContextLifecycleTests {
    /// A document that records each hook call, stamps its revision in willSave and fills in its
    /// slug there when it has none.
    final class Document: ManagedObject {
        override class var entityName: String { "Document" }
        @Managed var title: String?
        @Managed var slug: String?
        @Managed var revision: Int64
        @Managed var createdBy: String?

        var events: [String] = []
        var defaultSeenOnInsert: Int64?
        var didSaveSawTemporaryID: Bool?
        var didSaveSawChanges: Bool?

        override func awakeFromInsert() {
            events.append("awakeFromInsert")
            defaultSeenOnInsert = revision
            createdBy = "awakeFromInsert"
        }

        override func awakeFromFetch() { events.append("awakeFromFetch") }

        override func willSave() {
            events.append("willSave")
            guard !isDeleted else { return }
            revision += 1
            if slug == nil, let title { slug = title.lowercased().replacingOccurrences(of: " ", with: "-") }
        }

        override func didSave() {
            events.append("didSave")
            didSaveSawTemporaryID = objectID.isTemporary
            didSaveSawChanges = hasChanges
        }
    }

    /// Documents in one in-memory store.
    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let store: any IncrementalStore
        let context: ManagedObjectContext

        init() throws {
            let model = ManagedObjectModel {
                EntityDescription("Document") {
                    AttributeDescription("title", .string, optional: false)
                    AttributeDescription("slug", .string, optional: false)
                    AttributeDescription("revision", .integer64, default: 7)
                    AttributeDescription("createdBy", .string)
                }
            }
            coordinator = try PersistentStoreCoordinator(model: model)
            coordinator.register(Document.self)
            store = try coordinator.addStore(type: StoreType.inMemory.name)
            context = ManagedObjectContext(coordinator: coordinator)
        }

        func stored(_ document: Document) throws -> [String: AttributeValue]? {
            try store.snapshot(for: document.objectID)?.values.dictionary
        }
    }

    @Test func awakeFromInsertRunsOnceAfterTheDefaultsAreSet() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let document = Document(context: stack.context)
            #expect(document.events == ["awakeFromInsert"])
            #expect(document.defaultSeenOnInsert == 7)
            #expect(document.createdBy == "awakeFromInsert")
            let generic = try stack.context.insertNewObject(forEntityName: "Document")
            let typed = try #require(generic as? Document)
            #expect(typed.events == ["awakeFromInsert"])
            typed.title = "Generic"
            document.title = "Read Me"
            try stack.context.save()
            #expect(try stack.stored(document)?["createdBy"] == "awakeFromInsert")
            #expect(document.events.filter { $0 == "awakeFromInsert" }.count == 1)
        }
    }

    @Test func awakeFromFetchRunsWhenAFetchedObjectIsLoadedNotOnInsert() throws {
        let stack = try Stack()
        let id = try stack.context.performAndWait {
            let document = Document(context: stack.context)
            document.title = "Read Me"
            try stack.context.save()
            #expect(!document.events.contains("awakeFromFetch"))
            return document.objectID
        }
        let reader = ManagedObjectContext(coordinator: stack.coordinator)
        try reader.performAndWait {
            let document = try #require(try reader.fetch(FetchRequest<Document>()).first)
            #expect(document.objectID == id)
            #expect(document.isFault)
            #expect(document.events.isEmpty)
            #expect(document.title == "Read Me")
            #expect(document.events == ["awakeFromFetch"])
            #expect(document.slug == "read-me")
            #expect(document.events == ["awakeFromFetch"])
        }
    }

    @Test func willSaveRunsBeforeValidationAndItsChangesAreSaved() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let document = Document(context: stack.context)
            document.title = "Read Me"
            try stack.context.save()
            #expect(document.events == ["awakeFromInsert", "willSave", "didSave"])
            #expect(try stack.stored(document)?["slug"] == "read-me")
            #expect(try stack.stored(document)?["revision"] == .integer64(8))

            document.title = "Read Me Again"
            try stack.context.save()
            #expect(try stack.stored(document)?["revision"] == .integer64(9))
            #expect(try stack.stored(document)?["title"] == "Read Me Again")
            #expect(try stack.stored(document)?["slug"] == "read-me")
            #expect(try stack.store.snapshot(for: document.objectID)?.version == 2)
        }
    }

    @Test func didSaveRunsAfterTheWriteWithThePermanentID() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let document = Document(context: stack.context)
            document.title = "Read Me"
            let unchanged = Document(context: stack.context)
            unchanged.title = "Other"
            try stack.context.save()
            #expect(document.didSaveSawTemporaryID == false)
            #expect(document.didSaveSawChanges == false)
            unchanged.events.removeAll()

            document.title = "Changed"
            try stack.context.save()
            #expect(document.events.suffix(2) == ["willSave", "didSave"])
            #expect(unchanged.events.isEmpty)
        }
    }

    @Test func deletedObjectsGetWillSaveAndDidSaveThenLeaveTheContext() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let document = Document(context: stack.context)
            document.title = "Doomed"
            try stack.context.save()
            document.events.removeAll()

            try stack.context.delete(document)
            try stack.context.save()
            #expect(document.events == ["willSave", "didSave"])
            #expect(document.managedObjectContext == nil)
            #expect(try stack.store.snapshot(for: document.objectID) == nil)
        }
    }

    @Test func aSaveThatFailsValidationRunsWillSaveButNotDidSave() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let document = Document(context: stack.context)
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .validation)
            #expect(error.validationErrors.map(\.key) == ["title", "slug"])
            #expect(document.events == ["awakeFromInsert", "willSave"])
            #expect(document.didSaveSawTemporaryID == nil)
            #expect(document.objectID.isTemporary)
        }
    }
}
