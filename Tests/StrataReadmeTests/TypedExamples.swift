import Foundation
import Strata
import StrataStores

// snippet: typed-classes
final class Author: ManagedObject {
    @Managed var name: String
    @ToMany var books: Set<Book>
}

final class Book: ManagedObject {
    @Managed var title: String?
    @Managed var pages: Int32?
    @ToOne var author: Author?
}
// end snippet

/// README's typed example: classes for the entities, a `#Predicate` fetch and a key-path sort.
enum TypedExamples {
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
            try context.save()
        }
        let view = container.viewContext
        let long = try view.performAndWait {
            let request = try FetchRequest<Book>(
                predicate: #Predicate { ($0.pages ?? 0) > 100 && $0.author?.name == "Grace Hopper" },
                sortBy: [SortDescriptor(\.title)])  // checked by the compiler, pushed into SQL
            return try view.fetch(request).map(\.title)
        }
        // end snippet
        return long
    }
}
