import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Undo across saves (written to a store file and read back), what rollback and reset do to
/// the undo groups, the notifications an undo posts, and which contexts record undo.
@Suite struct ContextUndoSaveTests {
    /// A context recording undo on a JSON file store in a temporary folder.
    final class FileStack {
        let folder: TemporaryDirectory
        let url: URL
        let coordinator: PersistentStoreCoordinator
        let context: ManagedObjectContext

        init() throws {
            folder = try TemporaryDirectory()
            url = folder.file("catalog.json")
            coordinator = try PersistentStoreCoordinator(model: CatalogStack.model(), storeTypes: [.jsonFile()])
            try coordinator.addStore(type: "JSON", at: url)
            context = ManagedObjectContext(coordinator: coordinator)
            context.performAndWait { context.undoManager = ContextUndoManager() }
        }

        /// Inserts and saves an object of `entity` with `values` in a perform block of its own.
        func savedInBlock(_ entity: String, _ values: [String: AttributeValue]) throws -> ManagedObject {
            try context.performAndWait {
                let object = try context.insert(entity, values)
                try context.save()
                return object
            }
        }

        /// The values of `key` of every stored object of `entity`, read by a new coordinator
        /// after this one has let go of the file, sorted.
        func reopenedValues(_ entity: String, _ key: String) throws -> [AttributeValue] {
            if let store = coordinator.stores.first { try coordinator.remove(store) }
            let reader = try PersistentStoreCoordinator(model: CatalogStack.model(), storeTypes: [.jsonFile()])
            try reader.addStore(type: "JSON", at: url)
            let context = ManagedObjectContext(coordinator: reader)
            return try context.performAndWait {
                try context.fetch(FetchRequest<ManagedObject>(entityName: entity)).map { try $0.value(forKey: key) }
            }.sorted { "\($0)" < "\($1)" }
        }
    }

    @Test func aSaveKeepsTheGroupsAndASaveAfterUndoWritesTheUndoneValues() throws {
        let stack = try FileStack()
        let context = stack.context
        let book = try stack.savedInBlock("Book", ["title": "Dune"])
        try context.performAndWait {
            try book.setValue("Dune Messiah", forKey: "title")
            try context.save()
        }
        try context.performAndWait {
            #expect(context.undoManager?.canUndo == true)
            context.undo()
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(context.updatedObjects == [book])
            try context.save()
        }
        #expect(try stack.reopenedValues("Book", "title") == ["Dune"])
    }

    @Test func undoingAnInsertAfterASaveDeletesTheObjectAndRedoKeepsIt() throws {
        let stack = try FileStack()
        let context = stack.context
        let author = try stack.savedInBlock("Author", ["name": "Herbert"])
        let book = try context.performAndWait { try context.insertNewObject(forEntityName: "Book") }
        try context.performAndWait {
            try book.setValue("Dune", forKey: "title")
            try book.setObject(author, forKey: "author")
            try context.save()
        }
        try context.performAndWait {
            context.undo()
            #expect(try book.value(forKey: "title") == .null)
            context.undo()
            #expect(context.deletedObjects == [book])
            #expect(try author.objects(forKey: "books").isEmpty)
            context.redo()
            context.redo()
            #expect(!book.isDeleted)
            #expect(try author.objects(forKey: "books") == [book])
            context.undo()
            context.undo()
            try context.save()
        }
        #expect(try stack.reopenedValues("Book", "title").isEmpty)
        #expect(try stack.reopenedValues("Author", "name") == ["Herbert"])
    }

    @Test func undoingASavedDeletionInsertsTheObjectAgain() throws {
        let stack = try FileStack()
        let context = stack.context
        let (author, book) = try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue("Herbert", forKey: "name")
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Dune", forKey: "title")
            try book.setObject(author, forKey: "author")
            try context.save()
            return (author, book)
        }
        try context.performAndWait {
            try context.delete(book)
            try context.save()
        }
        try context.performAndWait {
            #expect(book.managedObjectContext == nil)
            context.undo()
            #expect(book.isInserted && book.managedObjectContext === context)
            #expect(try author.objects(forKey: "books") == [book])
            try context.save()
            #expect(!book.objectID.isTemporary && !context.hasChanges)
            #expect(try author.objects(forKey: "books") == [book])
        }
        #expect(try stack.reopenedValues("Book", "title") == ["Dune"])
    }

    @Test func undoAfterASavePointsAtTheObjectsPermanentIDs() throws {
        let stack = try CatalogStack.undoable()
        let (book, herbert, austen) = try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            let herbert = try stack.insert("Author", ["name": "Herbert"])
            try book.setObject(herbert, forKey: "author")
            return (book, herbert, try stack.insert("Author", ["name": "Austen"]))
        }
        try stack.context.performAndWait { try book.setObject(austen, forKey: "author") }
        try stack.context.performAndWait {
            try stack.context.save()
            stack.context.undo()
            #expect(try book.value(forKey: "author") == .objectID(herbert.objectID))
            #expect(try herbert.objects(forKey: "books") == [book])
            #expect(try austen.objects(forKey: "books").isEmpty)
            try stack.context.save()
        }
        #expect(!herbert.objectID.isTemporary)
        #expect(try stack.stored(book.objectID)?["author"] == .objectID(herbert.objectID))
    }

    @Test func rollbackAndResetForgetTheGroups() throws {
        let stack = try CatalogStack.undoable()
        let book = try stack.insertInBlock("Book", ["title": "Dune"])
        try stack.context.performAndWait {
            try book.setValue("Dune Messiah", forKey: "title")
            stack.context.rollback()
            #expect(!stack.undoManager.canUndo && !stack.undoManager.canRedo)
            stack.context.undo()
            #expect(!stack.context.hasChanges)
        }
        try stack.insertInBlock("Book", ["title": "Emma"])
        stack.context.performAndWait {
            stack.context.undo()
            stack.context.reset()
            #expect(!stack.undoManager.canUndo && !stack.undoManager.canRedo)
        }
    }

    @Test func undoAndRedoAreAnnouncedAsObjectsDidChange() throws {
        let stack = try CatalogStack.undoable()
        let id = try stack.saved("Book", [["title": "Dune"]])[0]
        let book = stack.context.performAndWait { stack.context.object(with: id) }
        try stack.context.performAndWait { try book.setValue("Dune Messiah", forKey: "title") }
        let cover = try stack.insertInBlock("Cover", ["color": "ochre"])
        var posted: [ContextChanges] = []
        let token = stack.context.performAndWait {
            stack.context.addObserver(for: .objectsDidChange) { posted.append($0) }
        }
        stack.context.performAndWait { stack.context.undo() }
        stack.context.performAndWait { stack.context.undo() }
        stack.context.performAndWait { stack.context.redo() }
        #expect(posted.count == 3)
        #expect(posted.first?.deletedObjects == [cover])
        #expect(posted.dropFirst().first?.updatedObjects == [book])
        #expect(posted.last?.updatedObjects == [book])
        #expect(stack.context.performAndWait { (book.isUpdated, stack.context.hasChanges) } == (true, true))
        stack.context.performAndWait { stack.context.removeObserver(token) }
    }

    @MainActor @Test func theViewContextRecordsUndoAndBackgroundContextsDoNot() async throws {
        let container = try PersistentContainer(name: "Catalog", model: CatalogStack.model(), storeTypes: [])
        try await container.loadPersistentStores()
        #expect(container.viewContext.undoManager != nil)
        let background = container.newBackgroundContext()
        #expect(await background.perform { background.undoManager == nil })
        #expect(try await container.performBackgroundTask { $0.undoManager == nil })
    }
}
