import Foundation
import Strata

/// Four versions of a small library model, each a lightweight step from the one before, and
/// a reader that lists a store's objects in words.
///
/// - 1: `Author{name, nickname, born: Integer 16, books →> Book (ordered)}`, `Book{title,
///   pages: Integer 32, author → Author}`.
/// - 2: `Author` renamed `Writer`, `nickname` renamed `alias`, `born` widened to Integer 64,
///   `rating: Double` added (non-optional, default 3); `Book.pages` becomes a String; a new
///   `Prize` entity with a `Book.prize` relationship.
/// - 3: `Prize` removed, `Writer.books` no longer ordered, `Book.isbn` added.
/// - 4: `Book.edition` added, non-optional and without a default: a step that fails when
///   the store holds books.
enum LibraryVersions {
    static func model(_ version: Int) -> ManagedObjectModel {
        switch version {
        case 1:
            ManagedObjectModel(versionIdentifiers: ["1"]) {
                EntityDescription("Author") {
                    AttributeDescription("name", .string, optional: false)
                    AttributeDescription("nickname", .string)
                    AttributeDescription("born", .integer16)
                    RelationshipDescription.toMany(
                        "books", destination: "Book", inverse: "author", deleteRule: .cascade, ordered: true)
                }
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    AttributeDescription("pages", .integer32)
                    RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                }
            }
        case 2:
            ManagedObjectModel(versionIdentifiers: ["2"]) {
                writer(ordered: true)
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    AttributeDescription("pages", .string)
                    RelationshipDescription.toOne("author", destination: "Writer", inverse: "books")
                    RelationshipDescription.toOne("prize", destination: "Prize", inverse: "book")
                }
                EntityDescription("Prize") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne("book", destination: "Book", inverse: "prize")
                }
            }
        default:
            ManagedObjectModel(versionIdentifiers: ["\(version)"]) {
                writer(ordered: false)
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    AttributeDescription("pages", .string)
                    AttributeDescription("isbn", .string)
                    if version >= 4 { AttributeDescription("edition", .integer16, optional: false) }
                    RelationshipDescription.toOne("author", destination: "Writer", inverse: "books")
                }
            }
        }
    }

    private static func writer(ordered: Bool) -> EntityDescription {
        EntityDescription("Writer") {
            AttributeDescription("name", .string, optional: false)
            AttributeDescription("alias", .string).renamed(from: "nickname")
            AttributeDescription("born", .integer64)
            AttributeDescription("rating", .double, optional: false, default: 3)
            RelationshipDescription.toMany(
                "books", destination: "Book", inverse: "author", deleteRule: .cascade, ordered: ordered)
        }.renamed(from: "Author")
    }

    /// The inferred mapping from version 1 to 2 with a source filter leaving out the book
    /// titled "Notes": a mapping no store runs in place.
    static func mappingLeavingOutNotes() throws -> MappingModel {
        var mapping = try MappingModel.inferred(from: model(1), to: model(2))
        if let book = mapping.entityMappings.firstIndex(where: { $0.name == "BookToBook" }) {
            mapping.entityMappings[book].sourceFilter = try FetchPredicate(format: "title != 'Notes'")
        }
        return mapping
    }

    /// Writes a version 1 store of `type` at `url`: Ann (alias A, born 1950) with two books
    /// and Bob (nothing else known) with one.
    static func writeVersion1(_ type: StoreType, at url: URL) throws {
        let coordinator = try PersistentStoreCoordinator(model: model(1), storeTypes: [type])
        let store = try coordinator.addStore(PersistentStoreDescription(storeType: type, url: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let ann = try context.insertNewObject(forEntityName: "Author")
            try ann.setValue("Ann", forKey: "name")
            try ann.setValue("A", forKey: "nickname")
            try ann.setValue(.integer16(1950), forKey: "born")
            let bob = try context.insertNewObject(forEntityName: "Author")
            try bob.setValue("Bob", forKey: "name")
            var books: [ManagedObject] = []
            for (title, pages) in [("Tides", 100), ("Dunes", 200), ("Notes", nil)] as [(String, Int32?)] {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(.string(title), forKey: "title")
                try book.setValue(pages.map { .integer32($0) } ?? .null, forKey: "pages")
                books.append(book)
            }
            try ann.setObjects([books[1], books[0]], forKey: "books")
            try bob.setObjects([books[2]], forKey: "books")
            try context.save()
        }
        try coordinator.remove(store)
    }

    /// What ``writeVersion1(_:at:)`` wrote, as ``summary(of:type:model:)`` reads it with
    /// version 2.
    static let migratedSummary = [
        "Book pages=- title=Notes author=Bob prize=-",
        "Book pages=100 title=Tides author=Ann prize=-",
        "Book pages=200 title=Dunes author=Ann prize=-",
        "Writer alias=- born=- name=Bob rating=3.0 books=[Notes]",
        "Writer alias=A born=1950 name=Ann rating=3.0 books=[Dunes, Tides]",
    ]

    /// The same, read with version 3.
    static let version3Summary = migratedSummary.map {
        $0.replacingOccurrences(of: "pages=", with: "isbn=- pages=").replacingOccurrences(of: " prize=-", with: "")
    }

    /// One line per object of the store of `type` at `url` read with `model`, sorted: the
    /// entity, each stored attribute (`-` for none), each relationship by its objects' names
    /// or titles (to-many in order when ordered, else sorted).
    static func summary(of url: URL, type: StoreType, model: ManagedObjectModel) throws -> [String] {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [type])
        var description = PersistentStoreDescription(storeType: type, url: url)
        description.shouldMigrateStoreAutomatically = false
        let store = try coordinator.addStore(description)
        defer { try? coordinator.remove(store) }
        return try summary(of: coordinator)
    }

    /// ``summary(of:type:model:)`` of every store of `coordinator`.
    static func summary(of coordinator: PersistentStoreCoordinator) throws -> [String] {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            var lines: [String] = []
            for entity in coordinator.schema.entities where !entity.description.isAbstract {
                var request = FetchRequest<ManagedObject>(entityName: entity.name)
                request.includesSubentities = false
                for object in try context.fetch(request) {
                    var parts = [entity.name]
                    for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) where !attribute.isTransient {
                        parts.append("\(attribute.name)=\(words(try object.value(forKey: attribute.name)))")
                    }
                    for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
                        if relationship.isToMany {
                            let names = try object.objects(forKey: relationship.name).map(label)
                            parts.append("\(relationship.name)=\(relationship.isOrdered ? names : names.sorted())")
                        } else {
                            parts.append("\(relationship.name)=\(try label(object.object(forKey: relationship.name)))")
                        }
                    }
                    lines.append(parts.joined(separator: " ").replacingOccurrences(of: "\"", with: ""))
                }
            }
            return lines.sorted()
        }
    }

    private static func label(_ object: ManagedObject?) throws -> String {
        guard let object else { return "-" }
        for key in ["name", "title"] where object.entity.attributesByName[key] != nil {
            return words(try object.value(forKey: key))
        }
        return "?"
    }

    static func words(_ value: AttributeValue) -> String {
        switch value {
        case .null: "-"
        case .string(let text): text
        case .integer16(let number): "\(number)"
        case .integer32(let number): "\(number)"
        case .integer64(let number): "\(number)"
        case .double(let number): "\(number)"
        case .boolean(let flag): "\(flag)"
        case .date(let date): "\(date.timeIntervalSinceReferenceDate)"
        default: "\(value)"
        }
    }
}
