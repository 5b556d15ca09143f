import Foundation
import Strata
import StrataPostgresTesting
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// A lightweight migration of a PostgreSQL store changes it where it is, mostly by
/// `ALTER TABLE`, in one transaction: tables keep their identity (no copy), objects keep their
/// keys, the layout ends as a new store's of the new version, and a step that needs values
/// computed row by row is migrated by copy, saying why.
@Suite struct PostgresInPlaceMigrationTests {
    private static func newURL(_ name: String) throws -> URL {
        try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema(name))
    }

    private static func connection() throws -> PostgresConnection {
        let location = try PostgresLocation(url: try newURL("connection"))
        return try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
    }

    private static func text(_ result: PostgresResult, _ row: Int, _ column: Int) -> String {
        String(decoding: result.bytes(row, column) ?? [], as: UTF8.self)
    }

    /// Each table of the store's schema, by name, and its object identifier: a table copied
    /// or made again gets another.
    private static func tableIdentities(at url: URL) throws -> [String: Int64] {
        let rows = try connection().execute(
            "SELECT c.relname::text, c.oid::int8 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = $1 AND c.relkind = 'r'",
            [.text(try PostgresLocation(url: url).schema)])
        return Dictionary(uniqueKeysWithValues: (0..<rows.rowCount).map { (text(rows, $0, 0), rows.int64($0, 1) ?? 0) })
    }

    /// The store's tables, columns (type, storage, nullability) and index definitions, with
    /// the schema's name taken out, sorted: what a new store of the same model has.
    private static func layout(at url: URL) throws -> [String] {
        let schema = try PostgresLocation(url: url).schema
        let columns = try connection().execute(
            """
            SELECT c.relname::text, a.attname::text, format_type(a.atttypid, a.atttypmod), a.attstorage::text, \
            a.attnotnull::text FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid \
            JOIN pg_namespace n ON n.oid = c.relnamespace \
            WHERE n.nspname = $1 AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
            """,
            [.text(schema)])
        let indexes = try connection().execute(
            "SELECT indexdef::text FROM pg_indexes WHERE schemaname = $1", [.text(schema)])
        let columnLines = (0..<columns.rowCount).map { row in
            (0..<5).map { text(columns, row, $0) }.joined(separator: " ")
        }
        let indexLines = (0..<indexes.rowCount).map {
            text(indexes, $0, 0).replacingOccurrences(of: " ON \(schema).", with: " ON S.")
                .replacingOccurrences(of: " ON \(PostgresIdentifier.quoted(schema)).", with: " ON S.")
        }
        return (columnLines + indexLines).sorted()
    }

    /// Each object's primary key, by its entity and label.
    private static func keys(at url: URL, model: ManagedObjectModel) throws -> [String: String] {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.postgres])
        var description = PersistentStoreDescription.postgres(at: url)
        description.shouldMigrateStoreAutomatically = false
        let store = try coordinator.addStore(description)
        defer { try? coordinator.remove(store) }
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            var keys: [String: String] = [:]
            for entity in coordinator.schema.entities {
                for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity.name)) {
                    let label = try object.value(forKey: entity.attributesByName["name"] != nil ? "name" : "title")
                    keys["\(LibraryVersions.words(label))"] =
                        object.objectID.uriString.components(separatedBy: "/").last
                }
            }
            return keys
        }
    }

    /// Expects the store at `url` to have the layout a new, empty store of `model` has.
    private static func expectLayout(at url: URL, asANewStoreOf model: ManagedObjectModel) throws {
        let fresh = try newURL("fresh")
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.postgres])
        try coordinator.remove(try coordinator.addStore(.postgres(at: fresh)))
        let (migrated, new) = (try layout(at: url), try layout(at: fresh))
        #expect(migrated == new, "Only one has: \(Set(migrated).symmetricDifference(new).sorted())")
    }

    /// Library versions 1 → 3 rename an entity and an attribute, widen an integer, turn another
    /// into a string, add and remove an entity and its relationship, drop an order and add an
    /// attribute: both steps run in place, in one transaction; the tables kept are the same
    /// tables, the objects keep their keys, and the layout is a new version 3 store's.
    @Test func theLibrarysStepsRunInPlaceAndEndAsANewStore() throws {
        let url = try Self.newURL("library")
        try LibraryVersions.writeVersion1(.postgres, at: url)
        let identities = try Self.tableIdentities(at: url)
        let keys = try Self.keys(at: url, model: LibraryVersions.model(1))
        let log = CapturedLog()

        let steps = try MigrationPlan(models: (1...3).map(LibraryVersions.model))
            .migrateStore(at: url, type: .postgres, to: LibraryVersions.model(3), logger: log.logger())

        #expect(steps.count == 2)
        #expect(log.lines("Store migrated in place").count == 1)
        #expect(log.lines("Migrating by copy: the store cannot be migrated in place").isEmpty)
        let version3 = LibraryVersions.model(3)
        #expect(
            try LibraryVersions.summary(of: url, type: .postgres, model: version3) == LibraryVersions.version3Summary)
        let after = try Self.tableIdentities(at: url)
        #expect(after["Book"] == identities["Book"] && after["Writer"] == identities["Author"])
        #expect(try Self.keys(at: url, model: version3) == keys)
        try Self.expectLayout(at: url, asANewStoreOf: version3)
    }

    /// A mapping that filters its source, and a conversion PostgreSQL would not make exactly as
    /// Strata does (a double's digits), are migrated by copy, and the log says why.
    @Test func whatCannotRunInPlaceIsCopiedAndTheLogSaysWhy() throws {
        let url = try Self.newURL("filtered")
        try LibraryVersions.writeVersion1(.postgres, at: url)
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))
        let mapping = try LibraryVersions.mappingLeavingOutNotes()
        let log = CapturedLog()
        try MigrationManager(sourceModel: version1, destinationModel: version2, logger: log.logger())
            .migrateStore(at: url, type: .postgres, mapping: mapping)
        let filtered = log.lines("Migrating by copy: the store cannot be migrated in place")
        #expect(filtered.first?.metadata["reason"]?.description.contains("BookToBook") == true)
        let summary = try LibraryVersions.summary(of: url, type: .postgres, model: version2)
        #expect(summary.filter { $0.hasPrefix("Book") }.count == 2)

        let readings = try Self.newURL("readings")
        let (doubles, strings) = (Self.readings(.double), Self.readings(.string))
        let coordinator = try PersistentStoreCoordinator(model: doubles, storeTypes: [.postgres])
        let store = try coordinator.addStore(.postgres(at: readings))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Reading").setValue(.double(0.1), forKey: "value")
            try context.save()
        }
        try coordinator.remove(store)
        try MigrationManager(sourceModel: doubles, destinationModel: strings, logger: log.logger())
            .migrateStore(at: readings, type: .postgres, mapping: try .inferred(from: doubles, to: strings))
        let converted = log.lines("Migrating by copy: the store cannot be migrated in place").last
        #expect(converted?.metadata["reason"]?.description.contains("does not convert them to exactly") == true)
        #expect(
            try LibraryVersions.summary(of: readings, type: .postgres, model: strings) == ["Reading value=0.1"])
    }

    /// `Reading{value}` of `type`.
    private static func readings(_ type: AttributeType) -> ManagedObjectModel {
        ManagedObjectModel(versionIdentifiers: ["\(type)"]) {
            EntityDescription("Reading") { AttributeDescription("value", type) }
        }
    }

    /// Two entities renamed and a new root entity whose name sorts first, so every entity's
    /// number changes; an attribute renamed, one dropped, a non-optional one added with a
    /// default; the many-to-many's join table named after the other side now, so its columns
    /// swap. Objects keep their keys and relationships, new objects save, and the layout is a
    /// new store's.
    @Test func renamesRenumberingAndASwappedJoinTableRunInPlace() throws {
        let url = try Self.newURL("readers")
        let (version1, version2) = (Self.reading(1), Self.reading(2))
        let coordinator = try PersistentStoreCoordinator(model: version1, storeTypes: [.postgres])
        let store = try coordinator.addStore(.postgres(at: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            var books: [ManagedObject] = []
            for (title, pages) in [("Tides", 100), ("Dunes", 200), ("Notes", 30)] as [(String, Int32)] {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue(.string(title), forKey: "title")
                try book.setValue(.integer32(pages), forKey: "pages")
                books.append(book)
            }
            for (name, nickname, read) in [("Ann", "A", [0, 1]), ("Bob", nil, [1, 2])] as [(String, String?, [Int])] {
                let person = try context.insertNewObject(forEntityName: "Person")
                try person.setValue(.string(name), forKey: "name")
                try person.setValue(nickname.map { .string($0) } ?? .null, forKey: "nickname")
                try person.setObjects(read.map { books[$0] }, forKey: "books")
            }
            try context.save()
        }
        try coordinator.remove(store)
        let keys = try Self.keys(at: url, model: version1)
        let identities = try Self.tableIdentities(at: url)
        let log = CapturedLog()

        try MigrationManager(sourceModel: version1, destinationModel: version2, logger: log.logger())
            .migrateStore(at: url, type: .postgres, mapping: try .inferred(from: version1, to: version2))

        #expect(log.lines("Migrating by copy: the store cannot be migrated in place").isEmpty)
        #expect(
            try LibraryVersions.summary(of: url, type: .postgres, model: version2) == [
                "Reader alias=- name=Bob books=[Dunes, Notes]",
                "Reader alias=A name=Ann books=[Dunes, Tides]",
                "Volume format=paper title=Dunes readers=[Ann, Bob]",
                "Volume format=paper title=Notes readers=[Bob]",
                "Volume format=paper title=Tides readers=[Ann]",
            ])
        #expect(try Self.keys(at: url, model: version2) == keys)
        let after = try Self.tableIdentities(at: url)
        #expect(after["Volume"] == identities["Book"] && after["Reader"] == identities["Person"])
        #expect(after["Reader.books"] == identities["Book.readers"])
        try Self.expectLayout(at: url, asANewStoreOf: version2)

        let migrated = try PersistentStoreCoordinator(model: version2, storeTypes: [.postgres])
        try migrated.addStore(.postgres(at: url))
        let next = ManagedObjectContext(coordinator: migrated)
        try next.performAndWait {
            let article = try next.insertNewObject(forEntityName: "Article")
            try article.setValue("News", forKey: "headline")
            let cleo = try next.insertNewObject(forEntityName: "Reader")
            try cleo.setValue("Cleo", forKey: "name")
            try cleo.setObjects(
                Array(try next.fetch(FetchRequest<ManagedObject>(entityName: "Volume"))), forKey: "books")
            try next.save()
            #expect(try next.count(for: FetchRequest<ManagedObject>(entityName: "Reader")) == 3)
            #expect(try next.count(for: FetchRequest<ManagedObject>(entityName: "Article")) == 1)
        }
    }

    /// Entity `A` renamed `B` while `B` is renamed `C`: each table takes the name another has
    /// until the step, primary key indexes included, in place.
    @Test func tablesTakingEachOthersNamesRunInPlace() throws {
        let url = try Self.newURL("chain")
        let version1 = ManagedObjectModel(versionIdentifiers: ["1"]) {
            EntityDescription("A") { AttributeDescription("name", .string) }
            EntityDescription("B") { AttributeDescription("title", .string) }
        }
        let version2 = ManagedObjectModel(versionIdentifiers: ["2"]) {
            EntityDescription("B") { AttributeDescription("name", .string) }.renamed(from: "A")
            EntityDescription("C") { AttributeDescription("title", .string) }.renamed(from: "B")
        }
        let coordinator = try PersistentStoreCoordinator(model: version1, storeTypes: [.postgres])
        let store = try coordinator.addStore(.postgres(at: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "A").setValue("Ann", forKey: "name")
            try context.insertNewObject(forEntityName: "B").setValue("Tides", forKey: "title")
            try context.save()
        }
        try coordinator.remove(store)
        let identities = try Self.tableIdentities(at: url)
        let log = CapturedLog()

        try MigrationManager(sourceModel: version1, destinationModel: version2, logger: log.logger())
            .migrateStore(at: url, type: .postgres, mapping: try .inferred(from: version1, to: version2))

        #expect(
            log.lines("Store migrated in place").count == 1,
            "\(log.lines("Migrating by copy: the store cannot be migrated in place").map(\.metadata))")
        #expect(
            try LibraryVersions.summary(of: url, type: .postgres, model: version2) == ["B name=Ann", "C title=Tides"])
        let after = try Self.tableIdentities(at: url)
        #expect(after["B"] == identities["A"] && after["C"] == identities["B"])
        try Self.expectLayout(at: url, asANewStoreOf: version2)
    }

    /// A uniqueness constraint dropped in the step that gives its attribute a default: the
    /// objects that had none all get it, which the old, deferred constraint would refuse were
    /// it still checked; it is dropped before the rows change, and the step runs in place.
    @Test func aDroppedUniquenessConstraintDoesNotCheckTheRowsTheStepMakesAlike() throws {
        let url = try Self.newURL("unique")
        let version1 = ManagedObjectModel(versionIdentifiers: ["1"]) {
            EntityDescription("Badge") {
                AttributeDescription("code", .string)
                UniquenessConstraint("code")
            }
        }
        let version2 = ManagedObjectModel(versionIdentifiers: ["2"]) {
            EntityDescription("Badge") { AttributeDescription("code", .string, optional: false, default: "none") }
        }
        let coordinator = try PersistentStoreCoordinator(model: version1, storeTypes: [.postgres])
        let store = try coordinator.addStore(.postgres(at: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            for code in ["a", nil, nil] as [String?] {
                try context.insertNewObject(forEntityName: "Badge").setValue(
                    code.map { .string($0) } ?? .null, forKey: "code")
            }
            try context.save()
        }
        try coordinator.remove(store)
        let log = CapturedLog()

        try MigrationManager(sourceModel: version1, destinationModel: version2, logger: log.logger())
            .migrateStore(at: url, type: .postgres, mapping: try .inferred(from: version1, to: version2))

        #expect(log.lines("Store migrated in place").count == 1)
        #expect(
            try LibraryVersions.summary(of: url, type: .postgres, model: version2) == [
                "Badge code=a", "Badge code=none", "Badge code=none",
            ])
        try Self.expectLayout(at: url, asANewStoreOf: version2)
    }

    /// A non-optional attribute without a default added to objects that exist fails the
    /// migration with a typed error naming it, and the store is as it was: same tables, same
    /// version, same objects.
    @Test func aRequiredValueNoObjectGetsLeavesTheStoreAsItWas() throws {
        let url = try Self.newURL("required")
        try LibraryVersions.writeVersion1(.postgres, at: url)
        try MigrationPlan(models: (1...3).map(LibraryVersions.model))
            .migrateStore(at: url, type: .postgres, to: LibraryVersions.model(3))
        let (version3, version4) = (LibraryVersions.model(3), LibraryVersions.model(4))
        let identities = try Self.tableIdentities(at: url)
        let layout = try Self.layout(at: url)

        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(sourceModel: version3, destinationModel: version4)
                .migrateStore(at: url, type: .postgres, mapping: try .inferred(from: version3, to: version4))
        }

        #expect(error?.code == .invalidValue)
        #expect(error?.entityName == "Book" && error?.propertyName == "edition")
        #expect(try Self.tableIdentities(at: url) == identities)
        #expect(try Self.layout(at: url) == layout)
        #expect(
            try LibraryVersions.summary(of: url, type: .postgres, model: version3) == LibraryVersions.version3Summary)
    }

    /// Version 1: `Book{title, pages}` and `Person{name, nickname}`, many-to-many through
    /// `Book.readers`/`Person.books`. Version 2: `Book` renamed `Volume` (`pages` dropped,
    /// `format` added, non-optional, default "paper"), `Person` renamed `Reader` (`nickname`
    /// renamed `alias`), and a new `Article{headline}`.
    private static func reading(_ version: Int) -> ManagedObjectModel {
        if version == 1 {
            return ManagedObjectModel(versionIdentifiers: ["1"]) {
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    AttributeDescription("pages", .integer32)
                    RelationshipDescription.toMany("readers", destination: "Person", inverse: "books")
                }
                EntityDescription("Person") {
                    AttributeDescription("name", .string, optional: false)
                    AttributeDescription("nickname", .string)
                    RelationshipDescription.toMany("books", destination: "Book", inverse: "readers")
                }
            }
        }
        return ManagedObjectModel(versionIdentifiers: ["2"]) {
            EntityDescription("Article") { AttributeDescription("headline", .string) }
            EntityDescription("Volume") {
                AttributeDescription("title", .string)
                AttributeDescription("format", .string, optional: false, default: "paper")
                RelationshipDescription.toMany("readers", destination: "Reader", inverse: "books")
            }.renamed(from: "Book")
            EntityDescription("Reader") {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("alias", .string).renamed(from: "nickname")
                RelationshipDescription.toMany("books", destination: "Volume", inverse: "readers")
            }.renamed(from: "Person")
        }
    }
}
