import Foundation
import Testing

@testable import Strata

/// Derived attributes are computed when a context saves: for the objects saved and for those
/// whose derivation reads what the save changed; the application cannot set them.
@Suite struct DerivedAttributeTests {
    static let model = ManagedObjectModel {
        EntityDescription("Author") {
            AttributeDescription("name", .string)
            RelationshipDescription.toMany("books", destination: "Book", inverse: "author")
        }
        EntityDescription("Book") {
            AttributeDescription("title", .string)
            AttributeDescription("pageCount", .integer16).derived(from: "count:(pages)")
            AttributeDescription("words", .integer64).derived(from: "pages.words.@sum")
            AttributeDescription("byline", .string).derived(from: "author.name")
            AttributeDescription("sortTitle", .string).derived(from: "canonical:(title)")
            AttributeDescription("savedAt", .date).derived(from: "now()")
            RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
            RelationshipDescription.toMany("pages", destination: "Page", inverse: "book")
        }
        EntityDescription("Page") {
            AttributeDescription("words", .integer64)
            RelationshipDescription.toOne("book", destination: "Book", inverse: "pages")
        }
    }

    struct Stack {
        let context: ManagedObjectContext
        let book: ManagedObject
        let author: ManagedObject

        /// A saved book "Ça ira" by Ada, with pages of 10 and 20 words.
        init() throws {
            let coordinator = try PersistentStoreCoordinator(model: DerivedAttributeTests.model)
            try coordinator.addStore(.inMemory())
            let context = ManagedObjectContext(coordinator: coordinator)
            (book, author) = try context.performAndWait {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue("Ada", forKey: "name")
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("Ça ira", forKey: "title")
                try book.setObject(author, forKey: "author")
                for words in [10, 20] {
                    let page = try context.insertNewObject(forEntityName: "Page")
                    try page.setValue(.integer64(Int64(words)), forKey: "words")
                    try page.setObject(book, forKey: "book")
                }
                try context.save()
                return (book, author)
            }
            self.context = context
        }
    }

    @Test func aSaveComputesEveryKindOfDerivation() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            #expect(try stack.book.value(forKey: "pageCount") == .integer16(2))
            #expect(try stack.book.value(forKey: "words") == .integer64(30))
            #expect(try stack.book.value(forKey: "byline") == .string("Ada"))
            #expect(try stack.book.value(forKey: "sortTitle") == .string("ca ira"))
            guard case .date(let savedAt) = try stack.book.value(forKey: "savedAt") else {
                Issue.record("Book.savedAt holds no date")
                return
            }
            #expect(abs(savedAt.timeIntervalSinceNow) < 60)
        }
    }

    @Test func changingWhatADerivationReadsRecomputesTheObjectsHoldingIt() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let pages = try stack.book.objects(forKey: "pages")
            let (page, other) = (pages[0], pages[1])
            let otherWords: Int64 = try other.value(forKey: "words") == .integer64(10) ? 10 : 20
            try page.setValue(.integer64(100), forKey: "words")
            try stack.author.setValue("Ada Lovelace", forKey: "name")
            try stack.context.save()
            #expect(try stack.book.value(forKey: "words") == .integer64(100 + otherWords))
            #expect(try stack.book.value(forKey: "byline") == .string("Ada Lovelace"))
            try stack.context.delete(page)
            try stack.context.save()
            #expect(try stack.book.value(forKey: "pageCount") == .integer16(1))
        }
    }

    @Test func recomputingAnUnchangedValueLeavesTheObjectUnchanged() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let page = try #require(try stack.book.objects(forKey: "pages").first)
            try page.setValue(try page.value(forKey: "words"), forKey: "words")
            try stack.author.setValue("Ada", forKey: "name")
            stack.context.processPendingChanges()
            #expect(!stack.book.hasChanges)
        }
    }

    @Test func theApplicationCannotSetADerivedAttribute() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let error = try #require(throws: ContextError.self) { try stack.book.setValue(7, forKey: "pageCount") }
            #expect(error.code == .readOnlyProperty)
            #expect(error.message.contains("Book.pageCount"))
        }
    }

    @Test func aDerivationThatDoesNotFitItsAttributeFailsTheSaveNamingIt() throws {
        let model = ManagedObjectModel {
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                AttributeDescription("tiny", .integer16).derived(from: "multiply:by:(100000, 100000)")
            }
        }
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(.inMemory())
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            _ = try context.insertNewObject(forEntityName: "Tag")
            let error = try #require(throws: ContextError.self) { try context.save() }
            #expect(error.code == .validation)
            #expect(error.validationErrors.first?.key == "tiny")
            #expect(error.message.contains("Tag.tiny"))
        }
    }

    @Test func aDerivationNamingNoPropertyIsAModelError() throws {
        let model = ManagedObjectModel {
            EntityDescription("Tag") {
                AttributeDescription("count", .integer64).derived(from: "missing.@count")
                AttributeDescription("broken", .integer64).derived(from: "count:(")
            }
        }
        let error = try #require(throws: ModelError.self) { try model.freeze() }
        let kinds = error.issues.filter { $0.kind == .invalidDerivation }
        #expect(kinds.map(\.propertyName) == ["count", "broken"])
        #expect(kinds.first?.message.contains("'missing'") == true)
    }
}

/// Derivations reached through faults, chains of derivations, paths of several relationships and
/// uniqueness-constraint merges.
@Suite struct DerivedAttributeReachTests {
    static let model = ManagedObjectModel {
        EntityDescription("Publisher") {
            AttributeDescription("name", .string)
            RelationshipDescription.toMany("books", destination: "Book", inverse: "publisher")
        }
        EntityDescription("Book") {
            AttributeDescription("isbn", .string)
            AttributeDescription("savedAt", .date).derived(from: "now()")
            AttributeDescription("words", .integer64).derived(from: "sum:(chapters.words)")
            AttributeDescription("chapterCount", .integer64).derived(from: "chapters.@count")
            AttributeDescription("imprint", .string).derived(from: "publisher.name")
            RelationshipDescription.toMany("chapters", destination: "Chapter", inverse: "book")
            RelationshipDescription.toOne("publisher", destination: "Publisher", inverse: "books")
            UniquenessConstraint("isbn")
        }
        EntityDescription("Chapter") {
            AttributeDescription("words", .integer64).derived(from: "sum:(pages.words)")
            AttributeDescription("imprint", .string).derived(from: "book.publisher.name")
            RelationshipDescription.toOne("book", destination: "Book", inverse: "chapters")
            RelationshipDescription.toMany("pages", destination: "Page", inverse: "chapter")
        }
        EntityDescription("Page") {
            AttributeDescription("words", .integer64)
            RelationshipDescription.toOne("chapter", destination: "Chapter", inverse: "pages")
        }
    }

    /// A context holding a saved book from "Penguin" with one chapter of two pages (10 and 20
    /// words); the context is reset, so everything is a fault.
    static func stack() throws -> ManagedObjectContext {
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(.inMemory())
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let publisher = try context.insertNewObject(forEntityName: "Publisher")
            try publisher.setValue("Penguin", forKey: "name")
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("1", forKey: "isbn")
            try book.setObject(publisher, forKey: "publisher")
            let chapter = try context.insertNewObject(forEntityName: "Chapter")
            try chapter.setObject(book, forKey: "book")
            for words in [10, 20] {
                let page = try context.insertNewObject(forEntityName: "Page")
                try page.setValue(.integer64(Int64(words)), forKey: "words")
                try page.setObject(chapter, forKey: "chapter")
            }
            try context.save()
            context.reset()
        }
        return context
    }

    static func only(_ entity: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: entity)).first)
    }

    @Test func aChangeReachesOwnersThatAreFaultsAndDerivationsBuiltOnDerivations() throws {
        let context = try Self.stack()
        try context.performAndWait {
            #expect(try Self.only("Book", in: context).value(forKey: "words") == .integer64(30))
            context.reset()
            var request = FetchRequest<ManagedObject>(entityName: "Page")
            request.predicate = try FetchPredicate(format: "words == 10")
            let page = try #require(try context.fetch(request).first)
            try page.setValue(.integer64(110), forKey: "words")
            try context.save()
            #expect(try Self.only("Chapter", in: context).value(forKey: "words") == .integer64(130))
            #expect(try Self.only("Book", in: context).value(forKey: "words") == .integer64(130))
        }
    }

    @Test func aPathOfSeveralRelationshipsIsFollowedBack() throws {
        let context = try Self.stack()
        try context.performAndWait {
            try Self.only("Publisher", in: context).setValue("Puffin", forKey: "name")
            try context.save()
            #expect(try Self.only("Chapter", in: context).value(forKey: "imprint") == .string("Puffin"))
            #expect(try Self.only("Book", in: context).value(forKey: "imprint") == .string("Puffin"))
        }
    }

    @Test func nowFollowsOnlyObjectsTheSaveWrites() throws {
        let context = try Self.stack()
        try context.performAndWait {
            let book = try Self.only("Book", in: context)
            let before = try book.value(forKey: "savedAt")
            let publisher = try Self.only("Publisher", in: context)
            try publisher.setValue("Penguin", forKey: "name")
            let other = try context.insertNewObject(forEntityName: "Publisher")
            try other.setValue("Other", forKey: "name")
            try context.save()
            #expect(try book.value(forKey: "savedAt") == before)
            #expect(!book.hasChanges)
        }
    }

    @Test func mergingOnAUniquenessConstraintRecomputesTheSurvivor() throws {
        let context = try Self.stack()
        try context.performAndWait {
            context.mergePolicy = .mergeByPropertyObjectTrump
            let duplicate = try context.insertNewObject(forEntityName: "Book")
            try duplicate.setValue("1", forKey: "isbn")
            let chapter = try context.insertNewObject(forEntityName: "Chapter")
            try chapter.setObject(duplicate, forKey: "book")
            try context.save()
            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            #expect(books.count == 1)
            #expect(try books.first?.value(forKey: "chapterCount") == .integer64(2))
        }
    }
}
