import Foundation
import Testing

@testable import Strata

/// Each construct `#Predicate` offers translates to exactly the tree its format-string twin
/// parses to, so stores push both down alike; what has no form is a typed error.
@Suite struct TypedPredicateTests {
    final class Author: ManagedObject {
        @Managed var name: String
        @ToMany var books: Set<Book>
    }

    final class Book: ManagedObject {
        @Managed var title: String
        @Managed var pages: Int
        @Managed var rating: Double = 0
        @Managed var subtitle: String?
        @ToOne var author: Author?
        @ToMany var tags: Set<Tag>
        @Managed var shelf: Shelf = .top

        /// A computed Swift property reading a managed one: no key path of the grammar.
        var isLong: Bool { pages > 100 }
        /// Two managed properties read side by side: no key path of the grammar.
        var label: String { title + (subtitle ?? "") }
    }

    enum Shelf: String, CaseIterable, Codable, Sendable, AttributeValueConvertible {
        case top, bottom

        var attributeValue: AttributeValue { .string(rawValue) }

        init?(attributeValue value: AttributeValue) {
            guard case .string(let name) = value, let shelf = Shelf(rawValue: name) else { return nil }
            self = shelf
        }
    }

    struct Limits: Codable, Sendable {
        let maximum: Int
    }

    final class Tag: ManagedObject {
        @Managed var label: String
        @ToMany var books: Set<Book>
    }

    /// A typed predicate and its format-string twin.
    struct Twin: Sendable, CustomStringConvertible {
        let typed: Predicate<Book>
        let format: String

        var description: String { format }
    }

    static let twins: [Twin] = [
        Twin(typed: #Predicate<Book> { $0.pages > 100 }, format: "pages > 100"),
        Twin(
            typed: #Predicate<Book> { $0.pages > 100 && $0.title == "Dune" }, format: "pages > 100 AND title == 'Dune'"),
        Twin(
            typed: #Predicate<Book> { $0.pages < 10 || $0.rating >= 4.5 || $0.title != "x" },
            format: "pages < 10 OR rating >= 4.5 OR title != 'x'"),
        Twin(typed: #Predicate<Book> { !($0.pages <= 10) }, format: "NOT pages <= 10"),
        Twin(typed: #Predicate<Book> { $0.author?.name == "Ada" }, format: "author.name == 'Ada'"),
        Twin(typed: #Predicate<Book> { $0.author!.name == "Ada" }, format: "author.name == 'Ada'"),
        Twin(typed: #Predicate<Book> { $0.pages * 2 + 1 > 50 }, format: "pages * 2 + 1 > 50"),
        Twin(typed: #Predicate<Book> { $0.pages - 3 >= 1 }, format: "pages - 3 >= 1"),
        Twin(typed: #Predicate<Book> { -$0.rating < 0.5 }, format: "-rating < 0.5"),
        Twin(typed: #Predicate<Book> { $0.rating / 2.0 > 1.5 }, format: "rating / 2.0 > 1.5"),
        Twin(typed: #Predicate<Book> { $0.pages / 3 == 4 }, format: "trunc:(pages / 3) == 4"),
        Twin(typed: #Predicate<Book> { $0.pages % 2 == 0 }, format: "modulus:by:(pages, 2) == 0"),
        Twin(typed: #Predicate<Book> { $0.subtitle == nil }, format: "subtitle == nil"),
        Twin(
            typed: #Predicate<Book> { ($0.subtitle ?? "none") == "none" },
            format: "TERNARY(subtitle != nil, subtitle, 'none') == 'none'"),
        Twin(
            typed: #Predicate<Book> { ($0.pages > 10 ? $0.rating : 0.5) > 1.5 },
            format: "TERNARY(pages > 10, rating, 0.5) > 1.5"),
        Twin(typed: #Predicate<Book> { $0.title.starts(with: "Du") }, format: "title BEGINSWITH 'Du'"),
        Twin(typed: #Predicate<Book> { $0.title.contains("un") }, format: "title CONTAINS 'un'"),
        Twin(typed: #Predicate<Book> { [100, 200].contains($0.pages) }, format: "pages IN {100, 200}"),
        Twin(
            typed: #Predicate<Book> { $0.tags.contains { $0.label == "sf" } },
            format: "SUBQUERY(tags, $v1, $v1.label == 'sf').@count > 0"),
        Twin(
            typed: #Predicate<Book> { $0.tags.allSatisfy { $0.label != "x" } },
            format: "SUBQUERY(tags, $v1, NOT ($v1.label != 'x')).@count == 0"),
        Twin(typed: #Predicate<Book> { $0.tags.count > 2 }, format: "tags.@count > 2"),
        Twin(typed: #Predicate<Book> { $0.tags.isEmpty }, format: "tags.@count == 0"),
        Twin(
            typed: #Predicate<Book> { !$0.tags.isEmpty && $0.pages > 1 }, format: "NOT tags.@count == 0 AND pages > 1"),
    ]

    @Test(arguments: twins)
    func translatesToItsFormatStringTwin(_ twin: Twin) throws {
        #expect(try FetchPredicate(twin.typed) == FetchPredicate(format: twin.format))
    }

    @Test func capturedValuesBecomeConstants() throws {
        let minimum = 5
        let names = ["Ada", "Grace"]
        #expect(
            try FetchPredicate(#Predicate<Book> { $0.pages >= minimum }) == FetchPredicate(format: "pages >= 5"))
        #expect(
            try FetchPredicate(#Predicate<Book> { names.contains($0.title) })
                == FetchPredicate(format: "title IN {'Ada', 'Grace'}"))
    }

    @Test func valuesReadFromCapturedOnesBecomeConstants() throws {
        let limits = Limits(maximum: 7)
        #expect(
            try FetchPredicate(#Predicate<Book> { $0.pages > limits.maximum }) == FetchPredicate(format: "pages > 7"))
    }

    @Test func computedSwiftPropertiesAreNotManagedOnes() throws {
        #expect(KeyPathProbe.path(of: \Book.isLong, from: Book.self) == nil)
        #expect(KeyPathProbe.path(of: \Book.label, from: Book.self) == nil)
        #expect(KeyPathProbe.path(of: \Book.title.count, from: Book.self) == nil)
        #expect(KeyPathProbe.path(of: \Book.tags.first, from: Book.self) == nil)
        let error = try #require(throws: FetchPredicateError.self) {
            try FetchPredicate(#Predicate<Book> { $0.isLong })
        }
        #expect(error.code == .untranslatable)
        #expect(throws: FetchPredicateError.self) { try FetchSortDescriptor(SortDescriptor(\Book.label)) }
    }

    @Test func whatHasNoFormIsATypedErrorNamingIt() throws {
        let error = try #require(throws: FetchPredicateError.self) {
            try FetchPredicate(#Predicate<Book> { $0.title.count > 3 })
        }
        #expect(error.code == .untranslatable)
        #expect(error.message.contains("is not a managed property"))
    }

    @Test func sortDescriptorsMapOntoFetchSortDescriptors() throws {
        #expect(try FetchSortDescriptor(SortDescriptor(\Book.pages)) == FetchSortDescriptor("pages"))
        #expect(
            try FetchSortDescriptor(SortDescriptor(\Book.rating, order: .reverse))
                == FetchSortDescriptor("rating", ascending: false))
        #expect(try FetchSortDescriptor(SortDescriptor(\Book.title)) == FetchSortDescriptor("title"))
        #expect(
            try FetchSortDescriptor(SortDescriptor(\Book.title, comparator: .lexical, order: .reverse))
                == FetchSortDescriptor("title", ascending: false))
        #expect(
            try FetchSortDescriptor(SortDescriptor(\Book.author?.name, comparator: .lexical))
                == FetchSortDescriptor("author.name"))
    }

    @Test func keyPathsNameTheirManagedProperties() {
        #expect(KeyPathProbe.path(of: \Book.title, from: Book.self) == "title")
        #expect(KeyPathProbe.path(of: \Book.author?.name, from: Book.self) == "author.name")
        #expect(KeyPathProbe.path(of: \Book.tags, from: Book.self) == "tags")
        #expect(KeyPathProbe.path(of: \Book.objectID, from: Book.self) == nil)
    }

    @Test func aTypedRequestFetchesWhatItsTwinFetches() throws {
        let coordinator = try PersistentStoreCoordinator(model: ManagedObjectModel(types: [Book.self]))
        try coordinator.addStore(.inMemory())
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait { () throws in
            for (index, title) in ["Dune", "Emma", "Ulysses", "Beloved"].enumerated() {
                let book = Book(context: context)
                book.title = title
                book.pages = 100 * (index + 1)
            }
            try context.save()
            let typed = try FetchRequest<Book>(
                predicate: #Predicate { $0.pages > 100 && $0.pages < 400 }, sortBy: [SortDescriptor(\.title)])
            var twin = FetchRequest<Book>()
            twin.predicate = try FetchPredicate(format: "pages > 100 AND pages < 400")
            twin.sortDescriptors = [FetchSortDescriptor("title")]
            #expect(typed.predicate == twin.predicate)
            #expect(typed.sortDescriptors == twin.sortDescriptors)
            #expect(try context.fetch(typed).map(\.title) == ["Emma", "Ulysses"])
        }
    }
}
