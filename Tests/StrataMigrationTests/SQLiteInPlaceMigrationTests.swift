import Foundation
import Strata
import StrataSQLite
import StrataTestSupport
import StrataXcodeModel
import Testing

/// A lightweight migration of an SQLite store changes its file in place, as Core Data's does:
/// the same tables and rows as Core Data's own migrated stores, objects that keep their IDs,
/// unchanged tables left alone, and a failure that leaves the file as it was.
@Suite struct SQLiteInPlaceMigrationTests {
    /// CoreDataPlus's SampleModel version 2 renames `ExpensiveSportCar` to `LuxuryCar`, drops
    /// two attributes and adds a fetch index; Core Data migrated its version 1 store into its
    /// version 2 store, and Strata's migration of the same store gives the same tables with
    /// the same rows, `Z_PRIMARYKEY` keeping the old entity name as Core Data keeps it.
    @Test func coreDataPlusVersion1BecomesCoreDatasVersion2TableForTable() throws {
        let project = "alemar11-CoreDataPlus/Tests/Resources/SampleModel/"
        let bundle = try XcodeVersionedModel(contentsOf: AppleFixtures.url(project + "SampleModel.xcdatamodeld"))
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(project + "Fixtures/SampleModel_V1.sqlite", into: directory)
        let appleDirectory = try TemporaryDirectory()
        let expected = try AppleFixtures.copyStore(project + "Fixtures/SampleModel_V2.sqlite", into: appleDirectory)
        let identifier = try #require(try StoreType.sqlite.metadata(ofFileAt: url)).storeIdentifier

        let steps = try bundle.migrationPlan().migrateStore(
            at: url, type: .sqlite, to: try bundle.model(named: "SampleModel2"))

        #expect(steps.map(\.isInferred) == [true])
        let migrated = try SQLiteFileContents(url)
        let apple = try SQLiteFileContents(expected)
        #expect(migrated.schema == apple.schema)
        #expect(migrated.rows == apple.rows)
        #expect(migrated.rows["Z_PRIMARYKEY"]?.contains { $0.contains("ExpensiveSportCar") } == true)
        let metadata = try #require(try StoreType.sqlite.metadata(ofFileAt: url))
        let appleMetadata = try #require(try StoreType.sqlite.metadata(ofFileAt: expected))
        #expect(metadata.storeIdentifier == identifier)
        #expect(metadata.versionHashes == appleMetadata.versionHashes)
    }

    /// jeffreybergier's store goes through four renames of its one attribute, in one
    /// transaction, and ends as the version 2.0.0 store Core Data wrote.
    @Test func aChainOfRenamesEndsAsCoreDatasNewestStore() throws {
        let project = AppleStoreMigrationTests.bergier
        let bundle = try XcodeVersionedModel(
            contentsOf: AppleFixtures.url(project + "CoreDataMigration/Model.xcdatamodeld"))
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(project + "CoreDataMigrationTests/Example_v1.0.0.sqlite", into: directory)
        let expected = try AppleFixtures.copyStore(
            project + "CoreDataMigrationTests/Example_v2.0.0.sqlite", into: directory)

        let steps = try bundle.migrationPlan().migrateStore(at: url, type: .sqlite, to: try bundle.currentModel())

        #expect(steps.count == 4)
        let migrated = try SQLiteFileContents(url)
        let apple = try SQLiteFileContents(expected)
        #expect(migrated.schema == apple.schema)
        #expect(migrated.rows == apple.rows)
    }

    /// The library's versions 1 → 3 rename an entity and an attribute, convert two attribute
    /// types, add and remove an entity and drop an order, and renumber every entity: the
    /// objects keep their primary keys and the file's schema is a new version 3 store's.
    @Test func objectsKeepTheirKeysAndTheSchemaIsANewStores() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let keysBefore = try Self.primaryKeys(in: url, model: LibraryVersions.model(1), label: ["Author": "name"])
        let log = CapturedLog()

        let steps = try MigrationPlan(models: (1...3).map(LibraryVersions.model))
            .migrateStore(at: url, type: .sqlite, to: LibraryVersions.model(3), logger: log.logger())

        #expect(steps.count == 2)
        #expect(log.lines("Store migrated in place").count == 1)
        #expect(log.lines("Migrating by copy: the store cannot be migrated in place").isEmpty)
        #expect(
            try LibraryVersions.summary(of: url, type: .sqlite, model: LibraryVersions.model(3))
                == LibraryVersions.version3Summary)
        let keysAfter = try Self.primaryKeys(in: url, model: LibraryVersions.model(3), label: ["Writer": "name"])
        #expect(keysAfter == keysBefore)
        let fresh = directory.file("fresh.sqlite")
        try Self.create(fresh, model: LibraryVersions.model(3))
        #expect(try SQLiteFileContents(url).schema == SQLiteFileContents(fresh).schema)
    }

    /// Adding an attribute to one entity rebuilds its table and no other.
    @Test func anUnchangedTableIsLeftWhereItIs() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.sqlite")
        let (version1, version2) = (Self.notes(pinned: false), Self.notes(pinned: true))
        try Self.create(url, model: version1) { context in
            for text in ["one", "two"] {
                let note = try context.insertNewObject(forEntityName: "Note")
                try note.setValue(.string(text), forKey: "text")
            }
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue("work", forKey: "name")
        }
        let entriesBefore = try SQLiteSchemaEntries(url).rowIDs

        try MigrationManager(sourceModel: version1, destinationModel: version2)
            .migrateStore(at: url, type: .sqlite, mapping: try .inferred(from: version1, to: version2))

        let entriesAfter = try SQLiteSchemaEntries(url).rowIDs
        #expect(entriesAfter["ZTAG"] == entriesBefore["ZTAG"])
        #expect(entriesAfter["ZNOTE"] != entriesBefore["ZNOTE"])
        #expect(try SQLiteFileContents(url).rows["ZNOTE"] == ["1 | 1 | 1 | 0 | one", "2 | 1 | 1 | 0 | two"])
    }

    /// A mapping that filters its source cannot run in place: the store is migrated by copy,
    /// and the log says why.
    @Test func aMappingSQLCannotRunIsMigratedByCopy() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))
        let mapping = try LibraryVersions.mappingLeavingOutNotes()
        let log = CapturedLog()

        try MigrationManager(sourceModel: version1, destinationModel: version2, logger: log.logger())
            .migrateStore(at: url, type: .sqlite, mapping: mapping)

        let declined = log.lines("Migrating by copy: the store cannot be migrated in place")
        #expect(declined.first?.metadata["reason"]?.contains("BookToBook") == true)
        #expect(log.lines("Store migrated in place").isEmpty)
        let summary = try LibraryVersions.summary(of: url, type: .sqlite, model: version2)
        #expect(summary.filter { $0.hasPrefix("Book") }.count == 2)
    }

    /// A value that does not fit its new type fails the migration with a typed error naming
    /// the entity and attribute, and the file is byte for byte as it was.
    @Test func aValueThatDoesNotFitLeavesTheFileAsItWas() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("counts.sqlite")
        let (version1, version2) = (Self.counter(.integer64), Self.counter(.integer16))
        try Self.create(url, model: version1) { context in
            for count in [7, 100_000] as [Int64] {
                let counter = try context.insertNewObject(forEntityName: "Counter")
                try counter.setValue(.integer64(count), forKey: "count")
            }
        }
        let before = try DirectorySnapshot(directory.url)

        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(sourceModel: version1, destinationModel: version2)
                .migrateStore(at: url, type: .sqlite, mapping: try .inferred(from: version1, to: version2))
        }

        #expect(error?.code == .invalidValue)
        #expect(error?.entityName == "Counter")
        #expect(error?.propertyName == "count")
        #expect(error?.message.contains("100000") == true)
        #expect(try DirectorySnapshot(directory.url) == before)
    }

    /// A file whose `Z_PRIMARYKEY` numbers entities otherwise than Strata's layout is not
    /// changed in place, where renumbering would mislabel its rows: the migration declines,
    /// and the copy's source fails to open, naming the entity.
    @Test func aFileNumberingItsEntitiesOtherwiseIsNotChangedInPlace() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.sqlite")
        try Self.create(url, model: Self.notes(pinned: false))
        try SQLiteFileEditor.execute(
            "UPDATE Z_PRIMARYKEY SET Z_NAME = CASE Z_NAME WHEN 'Note' THEN 'Tag' ELSE 'Note' END", on: url)
        let before = try DirectorySnapshot(directory.url)
        let (version1, version2) = (Self.notes(pinned: false), Self.notes(pinned: true))
        let log = CapturedLog()

        let error = #expect(throws: StoreError.self) {
            try MigrationManager(sourceModel: version1, destinationModel: version2, logger: log.logger())
                .migrateStore(at: url, type: .sqlite, mapping: try .inferred(from: version1, to: version2))
        }

        #expect(error?.code == .incompatibleModel)
        let reason = log.lines("Migrating by copy: the store cannot be migrated in place").first?.metadata["reason"]
        #expect(reason?.contains("numbers entity 'Note' 2 in Z_PRIMARYKEY") == true)
        #expect(try DirectorySnapshot(directory.url) == before)
    }

    /// An entity renamed twice keeps its first name in `Z_PRIMARYKEY`, as Core Data keeps it,
    /// and the store still opens with the newest model.
    @Test func anEntityRenamedTwiceStillOpens() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("renamed.sqlite")
        let renames: [(String, String?)] = [("A", nil), ("B", "A"), ("C", "B")]
        let models = renames.enumerated().map { index, names in
            ManagedObjectModel(versionIdentifiers: ["\(index + 1)"]) {
                let entity = EntityDescription(names.0) { AttributeDescription("name", .string) }
                if let old = names.1 { entity.renamed(from: old) } else { entity }
            }
        }
        try Self.create(url, model: models[0]) { context in
            try context.insertNewObject(forEntityName: "A").setValue("kept", forKey: "name")
        }
        for step in 0..<2 {
            try MigrationManager(sourceModel: models[step], destinationModel: models[step + 1])
                .migrateStore(
                    at: url, type: .sqlite, mapping: try .inferred(from: models[step], to: models[step + 1]))
        }

        #expect(try SQLiteFileContents(url).rows["Z_PRIMARYKEY"] == ["1 | A | 0 | 1"])
        #expect(try SQLiteFileContents(url).rows["ZC"] == ["1 | 1 | 1 | kept"])
        let names = try AppleFixtures.objects(of: "C", in: url, model: models[2]).map { $0["name"] }
        #expect(names == ["kept"])
    }

    /// Two tables each converting an attribute's type: each gets its own conversion.
    @Test func eachTableConvertsWithItsOwnConversion() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shop.sqlite")
        func shop(_ rating: AttributeType, _ price: AttributeType) -> ManagedObjectModel {
            ManagedObjectModel {
                EntityDescription("Author") { AttributeDescription("rating", rating) }
                EntityDescription("Book") { AttributeDescription("price", price) }
            }
        }
        let (version1, version2) = (shop(.integer64, .integer64), shop(.boolean, .double))
        try Self.create(url, model: version1) { context in
            try context.insertNewObject(forEntityName: "Author").setValue(.integer64(1), forKey: "rating")
            try context.insertNewObject(forEntityName: "Book").setValue(.integer64(5), forKey: "price")
        }
        let log = CapturedLog()

        try MigrationManager(sourceModel: version1, destinationModel: version2, logger: log.logger())
            .migrateStore(at: url, type: .sqlite, mapping: try .inferred(from: version1, to: version2))

        #expect(log.lines("Store migrated in place").count == 1)
        #expect(try AppleFixtures.objects(of: "Author", in: url, model: version2).map { $0["rating"] } == ["true"])
        #expect(try AppleFixtures.objects(of: "Book", in: url, model: version2).map { $0["price"] } == ["5.0"])
    }

    /// A hand-written `copy` of an unchanged entity without property mappings passes its
    /// objects through as they are, in place as by copy.
    @Test func aCopyWithoutPropertyMappingsKeepsEveryValue() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.sqlite")
        let version1 = Self.notes(pinned: false)
        let version2 = ManagedObjectModel(versionIdentifiers: ["2"]) {
            EntityDescription("Note") { AttributeDescription("text", .string) }
            EntityDescription("Tag") { AttributeDescription("name", .string) }
            EntityDescription("Folder") { AttributeDescription("title", .string) }
        }
        try Self.create(url, model: version1) { context in
            try context.insertNewObject(forEntityName: "Note").setValue("kept", forKey: "text")
            try context.insertNewObject(forEntityName: "Tag").setValue("work", forKey: "name")
        }
        let mapping = try MappingModel(
            entityMappings: [
                EntityMapping(name: "NoteToNote", kind: .copy, sourceEntityName: "Note", destinationEntityName: "Note"),
                EntityMapping(name: "TagToTag", kind: .copy, sourceEntityName: "Tag", destinationEntityName: "Tag"),
                EntityMapping(name: "Folder", kind: .add, sourceEntityName: nil, destinationEntityName: "Folder"),
            ], sourceModel: version1, destinationModel: version2)

        try MigrationManager(sourceModel: version1, destinationModel: version2)
            .migrateStore(at: url, type: .sqlite, mapping: mapping)

        #expect(try AppleFixtures.objects(of: "Note", in: url, model: version2).map { $0["text"] } == ["kept"])
        #expect(try AppleFixtures.objects(of: "Tag", in: url, model: version2).map { $0["name"] } == ["work"])
    }

    /// Renaming `A` to `C` and `B` to `A` in one step: `Z_PRIMARYKEY` cannot keep the old name
    /// `A` for `C`, which the new `A` now has, so `C` gets its own, and the store opens.
    @Test func anOldNameAnotherEntityNowHasIsNotKept() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("swap.sqlite")
        let version1 = ManagedObjectModel(versionIdentifiers: ["1"]) {
            EntityDescription("A") { AttributeDescription("name", .string) }
            EntityDescription("B") { AttributeDescription("name", .string) }
        }
        let version2 = ManagedObjectModel(versionIdentifiers: ["2"]) {
            EntityDescription("A") { AttributeDescription("name", .string) }.renamed(from: "B")
            EntityDescription("C") { AttributeDescription("name", .string) }.renamed(from: "A")
        }
        try Self.create(url, model: version1) { context in
            try context.insertNewObject(forEntityName: "A").setValue("was A", forKey: "name")
            try context.insertNewObject(forEntityName: "B").setValue("was B", forKey: "name")
        }

        try MigrationManager(sourceModel: version1, destinationModel: version2)
            .migrateStore(at: url, type: .sqlite, mapping: try .inferred(from: version1, to: version2))

        #expect(try SQLiteFileContents(url).rows["Z_PRIMARYKEY"] == ["1 | B | 0 | 1", "2 | C | 0 | 1"])
        #expect(try AppleFixtures.objects(of: "A", in: url, model: version2).map { $0["name"] } == ["was B"])
        #expect(try AppleFixtures.objects(of: "C", in: url, model: version2).map { $0["name"] } == ["was A"])
    }

    // MARK: Helpers

    static func notes(pinned: Bool) -> ManagedObjectModel {
        ManagedObjectModel(versionIdentifiers: [pinned ? "2" : "1"]) {
            EntityDescription("Note") {
                AttributeDescription("text", .string)
                if pinned { AttributeDescription("pinned", .boolean, optional: false, default: false) }
            }
            EntityDescription("Tag") { AttributeDescription("name", .string) }
        }
    }

    static func counter(_ type: AttributeType) -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Counter") { AttributeDescription("count", type) }
        }
    }

    /// Creates an SQLite store of `model` at `url`, with the objects `fill` inserts.
    static func create(
        _ url: URL, model: ManagedObjectModel, fill: @escaping (ManagedObjectContext) throws -> Void = { _ in }
    ) throws {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite])
        let store = try coordinator.addStore(.sqlite(at: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try fill(context)
            try context.save()
        }
        try coordinator.remove(store)
    }

    /// The primary key of each object (the last component of its ID's URI) by a label: its
    /// entity and title or `label` attribute.
    static func primaryKeys(in url: URL, model: ManagedObjectModel, label: [String: String]) throws -> [String: String]
    {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite])
        let store = try coordinator.addStore(.sqlite(at: url))
        defer { try? coordinator.remove(store) }
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            var keys: [String: String] = [:]
            for entity in ["Book"] + label.keys {
                for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity)) {
                    let name = LibraryVersions.words(try object.value(forKey: label[entity] ?? "title"))
                    keys[name] = object.objectID.uriString.components(separatedBy: "/").last
                }
            }
            return keys
        }
    }
}
