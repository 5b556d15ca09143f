import Foundation
import Observation
import Strata
import StrataStores

// snippet: typed-classes
final class Author: ManagedObject {
    @Managed var name: String
    @ToMany(deleteRule: .cascade) var books: Set<Book>
}

final class Book: ManagedObject {
    @Managed var title: String?
    @Managed var pages: Int32?
    @ToOne var author: Author?  // the inverse of books: the only pair between the two
}

final class Loan: ManagedObject {
    @Managed var borrower: String?
    @Managed var title: String?
    @Managed var due: Date?
}
// end snippet

/// README's typed examples: a model from classes, a `#Predicate` fetch with a key-path sort,
/// and observing objects as they change.
enum TypedExamples {
    /// The model README's classes describe: the same as ``LibraryModel/make()``.
    static func model() throws -> ManagedObjectModel {
        // snippet: typed-model
        let model = try ManagedObjectModel(
            types: [Author.self, Book.self, Loan.self],
            configurations: ["Catalog": [Author.self, Book.self], "Desk": [Loan.self]])
        // end snippet
        return model
    }

    /// Saves two books of Grace Hopper's and fetches the titles of the long ones.
    @MainActor static func insertAndFetch(in container: PersistentContainer) async throws -> [String?] {
        // snippet: typed
        try await container.performBackgroundTask { context in
            let grace = Author(context: context)
            grace.name = "Grace Hopper"
            for (title, pages) in [("A Manual", 240), ("A Memo", 12)] as [(String, Int32)] {
                let book = Book(context: context)
                book.title = title
                book.pages = pages
                book.author = grace  // grace.books now holds it too
            }
            try context.save()  // permanent IDs, validation, one write per store
        }
        let view = container.viewContext  // the main actor's context, for the interface
        let long = try view.performAndWait {
            let request = try FetchRequest<Book>(
                predicate: #Predicate { ($0.pages ?? 0) > 100 && $0.author?.name == "Grace Hopper" },
                sortBy: [SortDescriptor(\.title)])  // checked by the compiler, pushed into SQL
            return try view.fetch(request).map(\.title)
        }
        // end snippet
        return long
    }

    /// Follows the books on the main actor, renames the first and returns the titles after the
    /// change and whether the tracking fired.
    @MainActor static func observe(in container: PersistentContainer) async throws -> (after: [String?], fired: Bool) {
        let fired = Flag()
        // snippet: observing
        let view = container.viewContext
        var books = try view.objects(of: FetchRequest<Book>(sortBy: [SortDescriptor(\.title)])).makeAsyncIterator()
        let shelf = try await books.next() ?? []  // the books now, as typed objects
        withObservationTracking {
            _ = shelf.first?.title  // what an interface shows
        } onChange: {
            fired.raise()  // SwiftUI would draw again
        }
        shelf.first?.title = "The Manual"  // fires the tracking
        view.processPendingChanges()  // as when the main actor's turn ends
        let renamed = try await books.next() ?? []  // the books after the change, sorted again
        // end snippet
        return (renamed.map(\.title), fired.isRaised)
    }
}

/// A flag raised from any thread.
final class Flag: @unchecked Sendable {
    // Sendable because `raised` is read and written only under `lock`.
    private let lock = NSLock()
    private var raised = false

    func raise() { lock.withLock { raised = true } }
    var isRaised: Bool { lock.withLock { raised } }
}
