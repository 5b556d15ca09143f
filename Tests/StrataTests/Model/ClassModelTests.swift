import Foundation
import Testing

@testable import Strata

/// A model made from classes: entities, attributes, relationships, inheritance and options come
/// from the declarations, with the version hashes of the same model written with the builder.
@Suite struct ClassModelTests {
    final class Author: ManagedObject {
        @Managed(.unique) var name: String
        @Managed([.indexed, .originalName("born")]) var birthYear: Int16?
        @ToMany(deleteRule: .cascade) var books: Set<Book>
    }

    final class Book: ManagedObject {
        override class var entityOptions: EntityOptions {
            EntityOptions(unique: [[\Book.title, \Book.author]], indexes: [[\Book.pages, \Book.title]])
        }
        @Managed var title: String
        @Managed var pages: Int32 = 100
        @Managed(.externalStorage) var cover: Data?
        @Managed(.transient) var isOpen: Bool = false
        @Managed([.preserveValueOnDeletion, .hashModifier("2")]) var isbn: UUID?
        @ToOne var author: Author?
        @OrderedToMany(inverse: \Chapter.book, minimumCount: 1, maximumCount: 40) var chapters: [Chapter]
        @ToMany(inverse: \Keyword.books) var keywords: Set<Keyword>
    }

    final class Chapter: ManagedObject {
        @Managed var heading: String?
        @ToOne(deleteRule: .deny, optional: false) var book: Book?
    }

    final class Keyword: ManagedObject {
        override class var entityName: String { "Tag" }
        @Managed var label: String?
        @ToMany var books: Set<Book>
    }

    class Vehicle: ManagedObject {
        override class var entityOptions: EntityOptions { EntityOptions(abstract: true, hashModifier: "v") }
        @Managed var plate: String
    }

    final class Truck: Vehicle {
        @Managed var axles: Int16 = 2
    }

    /// The model the classes above describe, written with the builder.
    static func builtModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Author", className: "Author") {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("birthYear", .integer16).indexed().renamed(from: "born")
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade)
                UniquenessConstraint("name")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("pages", .integer32, optional: false, default: 100)
                AttributeDescription("cover", .binary).externallyStored()
                AttributeDescription("isOpen", .boolean, optional: false, default: false, transient: true)
                AttributeDescription("isbn", .uuid).preservedAfterDeletion().versionHashModifier("2")
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                RelationshipDescription.toMany(
                    "chapters", destination: "Chapter", inverse: "book", ordered: true, minCount: 1, maxCount: 40)
                RelationshipDescription.toMany("keywords", destination: "Tag", inverse: "books")
                UniquenessConstraint("title", "author")
            }
            EntityDescription("Chapter") {
                AttributeDescription("heading", .string)
                RelationshipDescription.toOne(
                    "book", destination: "Book", inverse: "chapters", deleteRule: .deny, isOptional: false)
            }
            EntityDescription("Tag") {
                AttributeDescription("label", .string)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "keywords")
            }
        }
    }

    @Test func theClassesDescribeTheBuiltModelWithItsVersionHashes() throws {
        let derived = try ManagedObjectModel(types: [Book.self])
        try derived.freeze()
        let built = Self.builtModel()
        try built.freeze()
        #expect(derived.schema.entityVersionHashes.keys.sorted() == ["Author", "Book", "Chapter", "Tag"])
        for (entity, hash) in built.schema.entityVersionHashes {
            #expect(derived.schema.entityVersionHashes[entity] == hash, "entity \(entity)")
        }
        #expect(derived.schema.versionChecksum == built.schema.versionChecksum)
    }

    @Test func attributesTakeTheirTypeOptionalityDefaultAndOptionsFromTheDeclaration() throws {
        let model = try ManagedObjectModel(types: [Book.self])
        let book = try #require(model.entity(named: "Book"))
        #expect(book.className == "Book")
        let pages = try #require(book.attribute(named: "pages"))
        #expect(pages.type == .integer32 && !pages.isOptional && pages.defaultValue == .integer32(100))
        let cover = try #require(book.attribute(named: "cover"))
        #expect(cover.type == .binary && cover.isOptional && cover.allowsExternalBinaryDataStorage)
        let isOpen = try #require(book.attribute(named: "isOpen"))
        #expect(isOpen.isTransient && isOpen.defaultValue == .boolean(false))
        let isbn = try #require(book.attribute(named: "isbn"))
        #expect(isbn.preservesValueInHistoryOnDeletion && isbn.versionHashModifier == "2")
        let author = try #require(model.entity(named: "Author"))
        let birthYear = try #require(author.attribute(named: "birthYear"))
        #expect(birthYear.isIndexed && birthYear.renamingIdentifier == "born" && birthYear.type == .integer16)
        #expect(author.uniquenessConstraints == [["name"]])
        #expect(book.uniquenessConstraints == [["title", "author"]])
        #expect(book.fetchIndexes.map(\.name) == ["byPagesTitle"])
        #expect(book.fetchIndexes.first?.elements.map(\.propertyName) == ["pages", "title"])
    }

    @Test func relationshipsFindTheirInversesNamedImpliedOrUnambiguous() throws {
        let model = try ManagedObjectModel(types: [Book.self])
        let book = try #require(model.entity(named: "Book"))
        // Named on this side.
        #expect(book.relationship(named: "chapters")?.inverseName == "book")
        #expect(book.relationship(named: "keywords")?.inverseName == "books")
        // Named by the other side.
        #expect(model.entity(named: "Chapter")?.relationship(named: "book")?.inverseName == "chapters")
        #expect(model.entity(named: "Tag")?.relationship(named: "books")?.inverseName == "keywords")
        // The only pair between Author and Book.
        #expect(book.relationship(named: "author")?.inverseName == "books")
        #expect(model.entity(named: "Author")?.relationship(named: "books")?.inverseName == "author")
        let chapters = try #require(book.relationship(named: "chapters"))
        #expect(chapters.isOrdered && chapters.minCount == 1 && chapters.maxCount == 40)
        #expect(model.entity(named: "Chapter")?.relationship(named: "book")?.deleteRule == .deny)
    }

    @Test func theClassHierarchyIsTheEntityHierarchy() throws {
        let model = try ManagedObjectModel(types: [Truck.self])
        try model.freeze()
        #expect(model.entity(named: "Vehicle")?.isAbstract == true)
        #expect(model.entity(named: "Vehicle")?.versionHashModifier == "v")
        let truck = try #require(model.entity(named: "Truck"))
        #expect(truck.superentityName == "Vehicle" && !truck.isAbstract && truck.versionHashModifier == nil)
        #expect(truck.attributes.map(\.name) == ["axles"])
        #expect(model.classes["Truck"] == Truck.self && model.classes["Vehicle"] == Vehicle.self)
        let built = ManagedObjectModel {
            {
                var vehicle = EntityDescription("Vehicle", abstract: true) {
                    AttributeDescription("plate", .string, optional: false)
                }
                vehicle.versionHashModifier = "v"
                return vehicle
            }()
            EntityDescription("Truck", parent: "Vehicle") {
                AttributeDescription("axles", .integer16, optional: false, default: 2)
            }
        }
        try built.freeze()
        #expect(model.schema.entityVersionHashes == built.schema.entityVersionHashes)
    }

    @Test func configurationsListClasses() throws {
        let model = try ManagedObjectModel(
            types: [Book.self], configurations: ["Shelf": [Book.self, Author.self]], versionIdentifiers: ["3"])
        #expect(model.configurations == ["Shelf": ["Book", "Author"]])
        #expect(model.versionIdentifiers == ["3"])
    }

    final class Palette: ManagedObject {
        @Managed var colour: Colour?
        @Managed(.transient) var scratch: AttributeValue
    }

    struct Colour: AttributeValueConvertible {
        var attributeValue: AttributeValue { .string("red") }
        init?(attributeValue value: AttributeValue) { return nil }
    }

    @Test func aSwiftTypeWithNoAttributeTypeIsNamed() throws {
        let error = try #require(throws: ModelError.self) { try ManagedObjectModel(types: [Palette.self]) }
        #expect(error.issues.map(\.kind) == [.invalidClassDeclaration])
        #expect(error.issues.first?.propertyName == "colour")
        #expect(error.description.contains("Palette.colour is a Optional<Colour>"), "\(error)")
    }

    final class Loose: ManagedObject {
        override class var entityOptions: EntityOptions { EntityOptions(unique: [[\Loose.owner?.name]]) }
        @ToOne(inverse: \Author.name) var owner: Author?
    }

    @Test func keyPathsThatNameNoManagedPropertyAreNamed() throws {
        let error = try #require(throws: ModelError.self) { try ManagedObjectModel(types: [Loose.self]) }
        let messages = error.issues.map(\.message)
        #expect(messages.contains { $0.contains("uniqueness constraint") && $0.contains("Loose") }, "\(messages)")
        #expect(messages.contains { $0.contains("inverse") && $0.contains("Loose.owner") }, "\(messages)")
    }

    final class Cyclist: ManagedObject {
        @ToOne(inverse: \Cyclist.coach) var rival: Cyclist?
        @ToOne var coach: Cyclist?
    }

    final class Pair: ManagedObject {
        @ToOne(inverse: \Pair.second) var first: Pair?
        @ToOne var second: Pair?
        @ToMany(inverse: \Pair.second) var many: Set<Pair>
    }

    @Test func modelValidationRunsOnTheDerivedModel() throws {
        let error = try #require(throws: ModelError.self) { try ManagedObjectModel(types: [Pair.self]) }
        #expect(error.issues.contains { $0.kind == .inverseMismatch }, "\(error)")
        let cyclists = try ManagedObjectModel(types: [Cyclist.self])
        #expect(cyclists.entity(named: "Cyclist")?.relationship(named: "coach")?.inverseName == "rival")
    }

    final class Stamped: ManagedObject {
        @Managed var id: UUID = UUID()
    }

    @Test func anInitialValueThatDiffersEachTimeIsRefused() throws {
        let error = try #require(throws: ModelError.self) { try ManagedObjectModel(types: [Stamped.self]) }
        #expect(error.issues.map(\.kind) == [.invalidClassDeclaration])
        #expect(error.issues.first?.propertyName == "id")
        #expect(error.description.contains("awakeFromInsert()"))
    }

    final class Editor: ManagedObject {
        @ToMany var edited: Set<Manuscript>
        @ToMany var written: Set<Manuscript>
    }

    final class Manuscript: ManagedObject {
        @ToOne var editor: Editor?
        @ToOne var writer: Editor?
    }

    @Test func severalRelationshipsEachWayMustNameTheirInverses() throws {
        let error = try #require(throws: ModelError.self) { try ManagedObjectModel(types: [Editor.self]) }
        #expect(error.issues.map(\.kind) == [.invalidClassDeclaration])
        #expect(error.description.contains("Editor.edited, Editor.written, Manuscript.editor, Manuscript.writer"))
    }

    final class Rewired: ManagedObject {
        @Managed var title: String?

        required init(creating creation: Creation) {
            super.init(creating: creation)
            _title = Managed([.indexed])
        }
    }

    @Test func aWrapperReplacedByAnInitializerIsReported() throws {
        let error = try #require(throws: ModelError.self) { try ManagedObjectModel(types: [Rewired.self]) }
        #expect(error.issues.map(\.kind) == [.invalidClassDeclaration])
        #expect(error.description.contains("not replaced by an initializer"))
    }

    @Test func modelsAreDerivedOnManyThreadsAtOnce() async throws {
        let hashes = try await withThrowingTaskGroup(of: [String: [UInt8]].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let model = try ManagedObjectModel(types: [Book.self, Truck.self])
                    try model.freeze()
                    return model.schema.entityVersionHashes
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(hashes.map { $0.keys.sorted() }).count == 1)
        #expect(hashes.allSatisfy { $0 == hashes[0] })
    }
}
