import Foundation
import Strata

/// W: derived attributes are computed when a context saves and read back after reopening: counts,
/// sums, maxima and minima over a to-many relationship, a canonical string and a to-one key path,
/// kept current through inserts, updates and deletions.
enum DerivedAttributeChecks {
    static var all: [ConformanceCheck] { [afterInserts, afterUpdates, afterDeletions] }

    /// Shelves holding books, with every kind of derivation.
    private static let libraryModel = ManagedObjectModel {
        EntityDescription("Shelf") {
            AttributeDescription("name", .string)
            AttributeDescription("bookCount", .integer64).derived(from: "books.@count")
            AttributeDescription("totalPages", .integer64).derived(from: "sum:(books.pages)")
            AttributeDescription("thickest", .integer32).derived(from: "books.pages.@max")
            AttributeDescription("thinnest", .integer32).derived(from: "min:(books.pages)")
            AttributeDescription("sortName", .string).derived(from: "canonical:(name)")
            RelationshipDescription.toMany("books", destination: "Book", inverse: "shelf")
        }
        EntityDescription("Book") {
            AttributeDescription("title", .string)
            AttributeDescription("pages", .integer32)
            AttributeDescription("shelfName", .string).derived(from: "shelf.name")
            RelationshipDescription.toOne("shelf", destination: "Shelf", inverse: "books")
        }
    }

    private static func withLibrary<T>(in harness: CheckHarness, _ body: (CheckStack) throws -> T) throws -> T {
        try harness.withStore(of: libraryModel, named: "library", body)
    }

    /// Saves a shelf named "Émile's Shelf" holding books of 100, 250 and 40 pages.
    private static func saveShelf(in harness: CheckHarness) throws {
        try withLibrary(in: harness) { stack in
            let shelf = try stack.insert("Shelf", ["name": "Émile's Shelf"])
            for (title, pages) in [("A", 100), ("B", 250), ("C", 40)] {
                let book = try stack.insert("Book", ["title": .string(title), "pages": .integer32(Int32(pages))])
                try stack.run { try book.setObject(shelf, forKey: "shelf") }
            }
            try stack.save()
        }
    }

    /// Checks the shelf's derived values and every book's `shelfName`, after reopening.
    private static func expectShelf(
        in harness: CheckHarness, count: Int64, total: Int64, thickest: Int32, thinnest: Int32, name: String,
        sortName: String
    ) throws {
        try withLibrary(in: harness) { stack in
            let shelf = try require(try stack.objects("Shelf").first, "The saved shelf is missing after reopening.")
            try expectEqual(try stack.value(shelf, "bookCount"), .integer64(count), "Shelf.bookCount")
            try expectEqual(try stack.value(shelf, "totalPages"), .integer64(total), "Shelf.totalPages")
            try expectEqual(try stack.value(shelf, "thickest"), .integer32(thickest), "Shelf.thickest")
            try expectEqual(try stack.value(shelf, "thinnest"), .integer32(thinnest), "Shelf.thinnest")
            try expectEqual(try stack.value(shelf, "sortName"), .string(sortName), "Shelf.sortName")
            for book in try stack.objects("Book") {
                try expectEqual(try stack.value(book, "shelfName"), .string(name), "Book.shelfName")
            }
        }
    }

    private static let afterInserts = ConformanceCategory.derivedAttributes.check(
        "afterInserts", "Counts, sums, maxima, minima, canonical strings and key paths are saved with new objects."
    ) { harness in
        try saveShelf(in: harness)
        try expectShelf(
            in: harness, count: 3, total: 390, thickest: 250, thinnest: 40, name: "Émile's Shelf",
            sortName: "emile's shelf")
    }

    private static let afterUpdates = ConformanceCategory.derivedAttributes.check(
        "afterUpdates",
        "Changing what a derivation reads (a book's pages, the shelf's name) recomputes it on the objects holding it."
    ) { harness in
        try saveShelf(in: harness)
        try withLibrary(in: harness) { stack in
            let thin = try require(
                try stack.objects("Book", where: "pages == 40").first, "The 40-page book is missing.")
            let shelf = try require(try stack.objects("Shelf").first, "The shelf is missing.")
            try stack.run {
                try thin.setValue(500, forKey: "pages")
                try shelf.setValue("Zoë", forKey: "name")
            }
            try stack.save()
        }
        try expectShelf(in: harness, count: 3, total: 850, thickest: 500, thinnest: 100, name: "Zoë", sortName: "zoe")
    }

    private static let afterDeletions = ConformanceCategory.derivedAttributes.check(
        "afterDeletions", "Deleting an object a derivation counts recomputes it."
    ) { harness in
        try saveShelf(in: harness)
        try withLibrary(in: harness) { stack in
            let thick = try require(
                try stack.objects("Book", where: "pages == 250").first, "The 250-page book is missing.")
            try stack.run { try stack.context.delete(thick) }
            try stack.save()
        }
        try expectShelf(
            in: harness, count: 2, total: 140, thickest: 100, thinnest: 40, name: "Émile's Shelf",
            sortName: "emile's shelf")
    }
}
