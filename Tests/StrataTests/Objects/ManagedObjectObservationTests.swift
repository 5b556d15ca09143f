import Foundation
import Observation
import Testing

@testable import Strata

/// Typed properties read inside `withObservationTracking` are tracked; changes through the
/// context, undo, refresh, rollback and merges fire the tracking.
@Suite struct ManagedObjectObservationTests {
    final class Author: ManagedObject {
        @Managed var name: String?
        @ToMany var books: Set<Book>
    }

    final class Book: ManagedObject {
        @Managed var title: String?
        @Managed var pages: Int32 = 0
        @ToOne var author: Author?
    }

    /// Counts the times a tracking fired.
    final class Firings: @unchecked Sendable {
        // Sendable because `count` is read and written only under `lock`.
        private let lock = NSLock()
        private var count = 0
        func fire() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// Tracks what `read` reads and returns what counts the firings.
    static func track(_ read: () -> Void) -> Firings {
        let firings = Firings()
        withObservationTracking(read) { firings.fire() }
        return firings
    }

    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let context: ManagedObjectContext

        init() throws {
            coordinator = try PersistentStoreCoordinator(model: ManagedObjectModel(types: [Book.self]))
            try coordinator.addStore(.inMemory())
            context = ManagedObjectContext(coordinator: coordinator)
        }

        /// A saved book titled `title`, by an author named "Ada".
        func savedBook(_ title: String) throws -> Book {
            try context.performAndWait {
                let book = Book(context: context)
                book.title = title
                book.author = Author(context: context)
                book.author?.name = "Ada"
                try context.save()
                return book
            }
        }
    }

    @Test func aTypedChangeFiresTheTrackedPropertyOnly() throws {
        let stack = try Stack()
        let book = try stack.savedBook("Emma")
        stack.context.performAndWait {
            let title = Self.track { _ = book.title }
            book.pages = 300
            #expect(title.value == 0)
            book.title = "Persuasion"
            #expect(title.value == 1)
            let byKey = Self.track { _ = book.pages }
            try? book.setValue(.integer32(12), forKey: "pages")
            #expect(byKey.value == 1)
        }
    }

    @Test func settingARelationshipFiresItsInverse() throws {
        let stack = try Stack()
        let book = try stack.savedBook("Emma")
        stack.context.performAndWait {
            let newcomer = Author(context: stack.context)
            let oldAuthor = book.author
            let newBooks = Self.track { _ = newcomer.books }
            let oldBooks = Self.track { _ = oldAuthor?.books }
            let bookAuthor = Self.track { _ = book.author }
            book.author = newcomer
            #expect(newBooks.value == 1 && oldBooks.value == 1 && bookAuthor.value == 1)
        }
    }

    @Test func undoAndRedoFire() throws {
        let stack = try Stack()
        let book = try stack.savedBook("Emma")
        stack.context.performAndWait {
            stack.context.undoManager = ContextUndoManager()
            book.title = "Persuasion"
            stack.context.processPendingChanges()
            let undone = Self.track { _ = book.title }
            stack.context.undo()
            #expect(undone.value == 1)
            #expect(book.title == "Emma")
            let redone = Self.track { _ = book.title }
            stack.context.redo()
            #expect(redone.value == 1)
        }
    }

    @Test func refreshAndRollbackFireWhenChangesAreProcessed() throws {
        let stack = try Stack()
        let book = try stack.savedBook("Emma")
        try stack.context.performAndWait {
            book.title = "Draft"
            let rolledBack = Self.track { _ = book.title }
            stack.context.rollback()
            stack.context.processPendingChanges()
            #expect(rolledBack.value == 1 && book.title == "Emma")
            let refreshed = Self.track { _ = book.title }
            try stack.context.refresh(book, mergeChanges: false)
            #expect(refreshed.value == 0)
            stack.context.processPendingChanges()
            #expect(refreshed.value == 1)
        }
    }

    @Test func aMergedSaveOfAnotherContextFires() throws {
        let stack = try Stack()
        let book = try stack.savedBook("Emma")
        stack.context.automaticallyMergesChangesFromParent = true
        let merged = stack.context.performAndWait { Self.track { _ = book.title } }
        let writer = ManagedObjectContext(coordinator: stack.coordinator)
        try writer.performAndWait {
            let same = try #require(try writer.existingObject(with: book.objectID) as? Book)
            same.title = "Persuasion"
            try writer.save()
        }
        let deadline = Date().addingTimeInterval(10)
        while merged.value == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(merged.value == 1)
        stack.context.performAndWait { #expect(book.title == "Persuasion") }
    }

    @Test func aChildSaveAndADeletionFire() throws {
        let stack = try Stack()
        let book = try stack.savedBook("Emma")
        let saved = stack.context.performAndWait { Self.track { _ = book.title } }
        // A child reads its parent on the parent's queue: it works outside the parent's blocks.
        let child = ManagedObjectContext(parent: stack.context)
        try child.performAndWait {
            let same = try #require(try child.existingObject(with: book.objectID) as? Book)
            same.title = "Persuasion"
            try child.save()
        }
        try stack.context.performAndWait {
            stack.context.processPendingChanges()
            #expect(saved.value == 1 && book.title == "Persuasion")
            let draft = Book(context: stack.context)
            draft.title = "Draft"
            stack.context.processPendingChanges()
            let deleted = Self.track { _ = draft.title }
            try stack.context.delete(draft)
            stack.context.processPendingChanges()
            #expect(deleted.value == 1)
        }
    }

    @Test func readingByKeyAloneTracksNothing() throws {
        let stack = try Stack()
        let book = try stack.savedBook("Emma")
        stack.context.performAndWait {
            let firings = Self.track { _ = try? book.value(forKey: "title") }
            book.title = "Persuasion"
            #expect(firings.value == 0)
        }
    }

    @Test @MainActor func typedObjectsFollowTheirFetch() async throws {
        let coordinator = try PersistentStoreCoordinator(model: ManagedObjectModel(types: [Book.self]))
        try await coordinator.addStore(.inMemory())
        let context = ManagedObjectContext(coordinator: coordinator, concurrencyType: .mainQueue)
        let request = try FetchRequest<Book>(
            predicate: #Predicate { $0.pages > 100 }, sortBy: [SortDescriptor(\.title)])
        var iterator = context.objects(of: request).makeAsyncIterator()
        #expect(try await iterator.next()?.map(\.title) == [])
        let long = Book(context: context)
        long.title = "Middlemarch"
        long.pages = 880
        let short = Book(context: context)
        short.title = "Novella"
        short.pages = 90
        context.processPendingChanges()
        #expect(try await iterator.next()?.map(\.title) == ["Middlemarch"])
        short.pages = 120
        context.processPendingChanges()
        let books = try #require(try await iterator.next())
        #expect(books.map(\.title) == ["Middlemarch", "Novella"])
        #expect(books.last === short)
    }

    @Test func typedObjectsRefuseToBeIteratedOffTheirQueue() async throws {
        let coordinator = try PersistentStoreCoordinator(model: ManagedObjectModel(types: [Book.self]))
        try await coordinator.addStore(.inMemory())
        let context = ManagedObjectContext(coordinator: coordinator)
        var iterator = context.objects(of: FetchRequest<Book>()).makeAsyncIterator()
        let error = await #expect(throws: ContextError.self) { _ = try await iterator.next() }
        #expect(error?.code == .wrongContext)
    }
}
