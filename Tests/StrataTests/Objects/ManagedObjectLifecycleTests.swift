import Foundation
import Testing

@testable import Strata

/// The lifecycle and validation methods a ManagedObject subclass overrides.
@Suite struct ManagedObjectLifecycleTests {
    struct Refusal: Error, Sendable, Equatable {
        let reason: String
    }

    /// Records every lifecycle call; trims titles, refuses blank ones and refuses to be deleted
    /// while locked.
    final class Entry: ManagedObject {
        @Managed var title: String
        @Managed var revision: Int64
        @Managed var locked: Bool
        var events: [String] = []

        override func awakeFromInsert() {
            super.awakeFromInsert()
            events.append("awakeFromInsert")
            title = "Untitled"
        }

        override func awakeFromFetch() {
            super.awakeFromFetch()
            events.append("awakeFromFetch")
        }

        override func willSave() {
            super.willSave()
            events.append("willSave")
            if !isDeleted { revision += 1 }
        }

        override func didSave() {
            super.didSave()
            events.append("didSave")
        }

        override func validateValue(_ value: inout AttributeValue, forKey key: String) throws {
            try super.validateValue(&value, forKey: key)
            guard key == "title", case .string(let text) = value else { return }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { throw Refusal(reason: "a title cannot be blank") }
            value = .string(trimmed)
        }

        override func validateForInsert() throws {
            try super.validateForInsert()
            events.append("validateForInsert")
        }

        override func validateForUpdate() throws {
            try super.validateForUpdate()
            events.append("validateForUpdate")
        }

        override func validateForDelete() throws {
            try super.validateForDelete()
            events.append("validateForDelete")
            if locked { throw Refusal(reason: "\(title) is locked") }
        }
    }

    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let store: any IncrementalStore
        let context: ManagedObjectContext

        init() throws {
            let model = ManagedObjectModel {
                EntityDescription("Entry") {
                    AttributeDescription("title", .string)
                    AttributeDescription("revision", .integer64, default: 0)
                    AttributeDescription("locked", .boolean, default: .boolean(false))
                    AttributeDescription("rating", .integer16, optional: false, default: 3, min: 1, max: 5)
                }
            }
            coordinator = try PersistentStoreCoordinator(model: model)
            store = try coordinator.addStore(type: StoreType.inMemory.name, configuration: nil)
            coordinator.register(Entry.self)
            context = ManagedObjectContext(coordinator: coordinator, name: "journal")
        }

        /// An entry saved with `title`, returned with its events cleared.
        func savedEntry(_ title: String) throws -> Entry {
            let entry = Entry(context: context)
            entry.title = title
            try context.save()
            entry.events = []
            return entry
        }
    }

    @Test func awakeFromInsertRunsOnceAndMaySetValues() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let entry = Entry(context: stack.context)
            #expect(entry.events == ["awakeFromInsert"])
            #expect(entry.title == "Untitled")
            #expect(entry.revision == 0)
            #expect(entry.isInserted && !entry.isUpdated)
            let byName = try #require(try stack.context.insertNewObject(forEntityName: "Entry") as? Entry)
            #expect(byName.events == ["awakeFromInsert"])
        }
    }

    @Test func awakeFromFetchRunsWhenAFaultIsFilled() throws {
        let stack = try Stack()
        let id = try stack.context.performAndWait { try stack.savedEntry("Dune").objectID }
        let reader = ManagedObjectContext(coordinator: stack.coordinator)
        try reader.performAndWait {
            let entry = try #require(try reader.fetch(FetchRequest<Entry>()).first)
            #expect(entry.objectID == id)
            #expect(entry.events.isEmpty)
            #expect(entry.title == "Dune")
            #expect(entry.events == ["awakeFromFetch"])
            _ = entry.revision
            #expect(entry.events == ["awakeFromFetch"])
        }
        let eager = ManagedObjectContext(coordinator: stack.coordinator)
        try eager.performAndWait {
            var request = FetchRequest<Entry>()
            request.returnsObjectsAsFaults = false
            let entry = try #require(try eager.fetch(request).first)
            #expect(entry.events == ["awakeFromFetch"])
        }
    }

    @Test func willSaveMayChangeTheObjectAndTheChangeIsSaved() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let entry = Entry(context: stack.context)
            try stack.context.save()
            #expect(entry.revision == 1)
            #expect(try stack.store.snapshot(for: entry.objectID)?.values["revision"] == .integer64(1))
            #expect(!entry.hasChanges)
            entry.title = "Dune"
            try stack.context.save()
            #expect(entry.revision == 2)
            #expect(try stack.store.snapshot(for: entry.objectID)?.values["revision"] == .integer64(2))
        }
    }

    @Test func eachHookRunsOncePerSaveInOrder() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let changed = try stack.savedEntry("Changed")
            let deleted = try stack.savedEntry("Deleted")
            let untouched = try stack.savedEntry("Untouched")
            changed.title = "Changed again"
            deleted.title = "Deleted soon"
            try stack.context.delete(deleted)
            try stack.context.save()
            #expect(changed.events == ["willSave", "validateForUpdate", "didSave"])
            #expect(deleted.events == ["willSave", "validateForDelete", "didSave"])
            #expect(untouched.events.isEmpty)
            #expect(deleted.managedObjectContext == nil)
        }
    }

    @Test func aNewObjectIsValidatedForInsert() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let entry = Entry(context: stack.context)
            try stack.context.save()
            #expect(entry.events == ["awakeFromInsert", "willSave", "validateForInsert", "didSave"])
        }
    }

    @Test func validateValueMayReplaceAValueBeforeItIsSaved() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let entry = Entry(context: stack.context)
            entry.title = "  Dune  "
            try stack.context.save()
            #expect(entry.title == "Dune")
            #expect(try stack.store.snapshot(for: entry.objectID)?.values["title"] == "Dune")
            #expect(!entry.hasChanges)
        }
    }

    @Test func everyRefusalIsCollectedAndNothingIsSaved() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let locked = try stack.savedEntry("Locked")
            locked.locked = true
            try stack.context.save()
            let blank = Entry(context: stack.context)
            blank.title = "   "
            let outOfRange = Entry(context: stack.context)
            try outOfRange.setValue(.integer16(9), forKey: "rating")
            try stack.context.delete(locked)
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .validation)
            let byObject = Dictionary(grouping: error.validationErrors, by: \.objectID)
            #expect(byObject.count == 3)
            let blankError = try #require(byObject[blank.objectID]?.first)
            #expect(blankError.code == .custom)
            #expect(blankError.key == "title")
            #expect(blankError.underlying as? Refusal == Refusal(reason: "a title cannot be blank"))
            #expect(blankError.message.contains("'Entry.title'"))
            #expect(byObject[outOfRange.objectID]?.map(\.code) == [.tooLarge])
            let lockedError = try #require(byObject[locked.objectID]?.first)
            #expect(lockedError.code == .custom)
            #expect(lockedError.underlying as? Refusal == Refusal(reason: "Locked is locked"))
            #expect(locked.managedObjectContext === stack.context)
            let count = try stack.store.execute(StoreFetchRequest(entityName: "Entry", resultType: .count))
            #expect(count == .count(1))
            #expect(blank.objectID.isTemporary)
        }
    }
}
