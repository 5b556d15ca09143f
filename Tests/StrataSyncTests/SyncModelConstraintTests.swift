import Foundation
import Strata
import StrataSQLite
import StrataSync
import StrataTestSupport
import StrataXML
import Testing

/// Replicas whose model has what Core Data's mirroring forbids. A uniqueness constraint: two
/// replicas inserting the same unique key while apart end up with one object, the same on
/// both, whose relationships hold what both objects' held — no store stuck on a constraint
/// conflict, no book lost to a cascade. A required relationship and a deny rule: a book
/// added by an author another replica deleted meanwhile goes with the author, and no store
/// is stuck on validation or on the deny rule. A renamed attribute: replicas on the model
/// versions before and after the rename sync it.
@Suite struct SyncModelConstraintTests {
    /// Authors unique by name, deleting their books with them.
    static let model: ManagedObjectModel = {
        let model = try! SyncModel.replicaModel(
            for: ManagedObjectModel {
                EntityDescription("Author") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany(
                        "books", destination: "Book", inverse: "author", deleteRule: .cascade)
                    UniquenessConstraint("name")
                }
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    AttributeDescription("pages", .integer32, default: 0)
                    RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                }
            })
        try? model.freeze()
        return model
    }()

    /// Authors who cannot be deleted while they have books; books that cannot be without an
    /// author.
    static let requiredModel: ManagedObjectModel = {
        let model = try! SyncModel.replicaModel(
            for: ManagedObjectModel {
                EntityDescription("Author") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany("books", destination: "Book", inverse: "author", deleteRule: .deny)
                }
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    AttributeDescription("pages", .integer32, default: 0)
                    RelationshipDescription.toOne("author", destination: "Author", inverse: "books", isOptional: false)
                }
            })
        try? model.freeze()
        return model
    }()

    /// A hub in `directory` that resolves objects by the constraints of `model`.
    static func hub(in directory: TemporaryDirectory, for model: ManagedObjectModel = model) throws -> StoreHub {
        let coordinator = try PersistentStoreCoordinator(model: SyncModel.hubModel(), storeTypes: [.sqlite])
        try coordinator.addStore(type: "SQLite", at: directory.file("hub.sqlite"))
        return try StoreHub(coordinator: coordinator, rules: MergeRules().constrained(by: model.schema))
    }

    typealias Replica = SyncEngineTests.Replica

    static func addAuthor(_ name: String, writing title: String, to replica: Replica) throws {
        try replica.edit { context in
            let author = try SyncEngineTests.insert("Author", ["name": .string(name)], in: context)
            try SyncEngineTests.insert("Book", ["title": .string(title)], in: context).setObject(
                author, forKey: "author")
        }
    }

    /// A SQLite and an XML replica that each made an author "Le Guin" with a book while apart,
    /// the SQLite one first, synced.
    static func authorsOfOneNameMadeApart(in directory: TemporaryDirectory) async throws
        -> (StoreHub, Replica, Replica)
    {
        let hub = try Self.hub(in: directory)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: hub, model: Self.model)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: hub, start: 2_000, model: Self.model)
        try Self.addAuthor("Le Guin", writing: "Earthsea", to: sqlite)
        try Self.addAuthor("Le Guin", writing: "The Dispossessed", to: xml)
        for replica in [sqlite, xml, sqlite] { try await replica.engine.syncNow() }
        return (hub, sqlite, xml)
    }

    @Test func twoReplicasInsertingOneUniqueKeyApartEndWithOneObjectHoldingBothsBooks() async throws {
        let directory = try TemporaryDirectory()
        let (hub, sqlite, xml) = try await Self.authorsOfOneNameMadeApart(in: directory)
        let merged = [
            "Author Le Guin of [\"Earthsea\", \"The Dispossessed\"]", "Book Earthsea 0 by Le Guin",
            "Book The Dispossessed 0 by Le Guin",
        ]
        #expect(try sqlite.dump() == merged)
        #expect(try xml.dump() == merged, "the XML replica's own author gave way without its book")
        let hubState = await hub.resolvedObjects()
        #expect(await sqlite.engine.resolvedObjects() == hubState)
        #expect(await xml.engine.resolvedObjects() == hubState)
        #expect(hubState.values.filter { $0.entity == "Author" }.count == 1)

        // The author shown is both: renamed on the replica whose own gave way, it stays one.
        xml.wall.set(3_000)
        try xml.edit { context in
            try SyncEngineTests.first("Author", in: context).setValue("Ursula K. Le Guin", forKey: "name")
        }
        for replica in [xml, sqlite] { try await replica.engine.syncNow() }
        let renamed = merged.map { $0.replacingOccurrences(of: "Le Guin", with: "Ursula K. Le Guin") }
        #expect(try sqlite.dump() == renamed)
        #expect(try xml.dump() == renamed)

        // Reopened, each replica finds the same groups in what its store kept.
        for replica in [sqlite, xml] {
            try replica.reopen()
            try await replica.engine.syncNow()
            #expect(try replica.dump() == renamed)
            #expect(await replica.engine.resolvedObjects() == hub.resolvedObjects())
        }

        // Deleting it deletes both, and the books with them, everywhere.
        try sqlite.edit { context in try context.delete(try SyncEngineTests.first("Author", in: context)) }
        for replica in [sqlite, xml] { try await replica.engine.syncNow() }
        #expect(try sqlite.dump() == [])
        #expect(try xml.dump() == [])
        #expect(await hub.resolvedObjects().isEmpty)
    }

    @Test func aBookAddedByAnAuthorDeletedMeanwhileGoesWithThemAndNoStoreIsStuck() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.hub(in: directory, for: Self.requiredModel)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: hub, model: Self.requiredModel)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: hub, model: Self.requiredModel)
        try sqlite.edit { context in _ = try SyncEngineTests.insert("Author", ["name": "Butler"], in: context) }
        for replica in [sqlite, xml] { try await replica.engine.syncNow() }
        #expect(try xml.dump() == ["Author Butler of []"])

        // Apart: one deletes the author (who has no books there), the other adds a book by them.
        sqlite.wall.set(2_000)
        xml.wall.set(2_000)
        try sqlite.edit { context in try context.delete(try SyncEngineTests.first("Author", in: context)) }
        try xml.edit { context in
            try SyncEngineTests.insert("Book", ["title": "Kindred"], in: context)
                .setObject(try SyncEngineTests.first("Author", in: context), forKey: "author")
        }
        for replica in [sqlite, xml, sqlite] { try await replica.engine.syncNow() }
        #expect(try sqlite.dump() == [])
        #expect(try xml.dump() == [], "the book went with its author, past the deny rule")
        let hubState = await hub.resolvedObjects()
        #expect(hubState.isEmpty)
        for replica in [sqlite, xml] {
            #expect(await replica.engine.resolvedObjects() == hubState)
            #expect(try await replica.engine.status().pendingPushes == 0)
        }
    }

    @Test func aBookPulledBeforeItsRequiredAuthorWaitsForThem() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.hub(in: directory, for: Self.requiredModel)
        // Pulls of one push each.
        let xml = try Replica(
            type: .xml, at: directory.file("b.xml"), hub: hub, pullByteLimit: 1, model: Self.requiredModel)
        let other = ReplicaID.random()
        let (book, author) = (GlobalID.random(), GlobalID.random())
        try await SyncEngineTests.pushInsertion(
            of: book, "Book", ["title": .attribute("Kindred"), "author": .reference(author)], by: other, to: hub)
        try await xml.engine.syncNow()
        #expect(try xml.dump() == [], "a store cannot hold the book without its author yet")
        try await SyncEngineTests.pushInsertion(
            of: author, "Author", ["name": .attribute("Butler")], by: other, to: hub)
        try await xml.engine.syncNow()
        #expect(try xml.dump() == ["Author Butler of [\"Kindred\"]", "Book Kindred 0 by Butler"])
        try await xml.engine.syncNow()
        #expect(await hub.lastSequence == 2, "the replica pushed nothing of its own")
    }

    @Test func anAuthorsDeletionWaitsForTheBookMovedToAnAuthorNotPulledYet() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.hub(in: directory, for: Self.requiredModel)
        let xml = try Replica(
            type: .xml, at: directory.file("b.xml"), hub: hub, pullByteLimit: 1, model: Self.requiredModel)
        let other = ReplicaID.random()
        let (book, butler, wilson) = (GlobalID.random(), GlobalID.random(), GlobalID.random())
        try await SyncEngineTests.pushInsertion(
            of: butler, "Author", ["name": .attribute("Butler")], by: other, to: hub)
        try await SyncEngineTests.pushInsertion(
            of: book, "Book", ["title": .attribute("Kindred"), "author": .reference(butler)], by: other, to: hub)
        try await xml.engine.syncNow()
        let before = ["Author Butler of [\"Kindred\"]", "Book Kindred 0 by Butler"]
        #expect(try xml.dump() == before)

        // One push moves the book to an author the next push brings, and deletes its author.
        let later = SyncTimestamp(milliseconds: 600, counter: 0, replica: other)
        _ = try await hub.push(
            SyncPush(
                replica: other,
                operations: [
                    SyncOperation(object: butler, entity: "Author", stamp: later, change: .delete),
                    SyncOperation(
                        object: book, entity: "Book", stamp: later,
                        change: .set(key: "author", value: .reference(wilson))),
                ]))
        try await xml.engine.syncNow()
        #expect(try xml.dump() == before, "the book waits for its author, and the deletion waits for the book")
        try await SyncEngineTests.pushInsertion(
            of: wilson, "Author", ["name": .attribute("Wilson")], by: other, to: hub)
        try await xml.engine.syncNow()
        #expect(try xml.dump() == ["Author Wilson of [\"Kindred\"]", "Book Kindred 0 by Wilson"])
    }

    /// Books as version 1 has them, with a title, and as version 2 does, the title renamed to a
    /// name (renaming identifier "title") and a subtitle added.
    static func bookModel(version: Int) -> ManagedObjectModel {
        var name = AttributeDescription("name", .string)
        name.renamingIdentifier = "title"
        let model = try! SyncModel.replicaModel(
            for: ManagedObjectModel {
                EntityDescription("Book") {
                    if version == 1 {
                        AttributeDescription("title", .string)
                    } else {
                        name
                        AttributeDescription("subtitle", .string)
                    }
                    AttributeDescription("pages", .integer32, default: 0)
                }
            })
        try? model.freeze()
        return model
    }

    static func books(of replica: Replica, _ keys: [String]) throws -> [[AttributeValue]] {
        let context = ManagedObjectContext(coordinator: replica.context.coordinator)
        return try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).map { book in
                try keys.map { try book.value(forKey: $0) }
            }
        }
    }

    @Test func anAttributeRenamedInALaterModelVersionSyncsWithReplicasOfTheEarlier() async throws {
        let directory = try TemporaryDirectory()
        let hub = try SyncEngineTests.hub(in: directory)
        let earlier = try Replica(
            type: .sqlite, at: directory.file("a.sqlite"), hub: hub, model: Self.bookModel(version: 1))
        let later = try Replica(type: .xml, at: directory.file("b.xml"), hub: hub, model: Self.bookModel(version: 2))
        try earlier.edit { context in
            _ = try SyncEngineTests.insert("Book", ["title": "Dune", "pages": .integer32(412)], in: context)
        }
        for replica in [earlier, later] { try await replica.engine.syncNow() }
        #expect(try Self.books(of: later, ["name", "pages"]) == [["Dune", .integer32(412)]])

        later.wall.set(2_000)
        try later.edit { context in
            let book = try SyncEngineTests.first("Book", in: context)
            try book.setValue("Dune Messiah", forKey: "name")
            try book.setValue("The sequel", forKey: "subtitle")
        }
        for replica in [later, earlier] { try await replica.engine.syncNow() }
        #expect(try Self.books(of: earlier, ["title", "pages"]) == [["Dune Messiah", .integer32(412)]])
        let merged = try #require(await hub.resolvedObjects().values.first)
        #expect(
            Set(merged.values.keys) == ["title", "subtitle", "pages"], "the renamed key syncs under its first name")

        // A write of the earlier replica keeps the subtitle it does not know.
        earlier.wall.set(3_000)
        try earlier.edit { context in
            try SyncEngineTests.first("Book", in: context).setValue("Children of Dune", forKey: "title")
        }
        for replica in [earlier, later] { try await replica.engine.syncNow() }
        #expect(try Self.books(of: later, ["name", "subtitle"]) == [["Children of Dune", "The sequel"]])
    }

    /// Folders unique by name within their parent.
    static let folderModel: ManagedObjectModel = {
        let model = try! SyncModel.replicaModel(
            for: ManagedObjectModel {
                EntityDescription("Folder") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toOne("parent", destination: "Folder", inverse: "children")
                    RelationshipDescription.toMany("children", destination: "Folder", inverse: "parent")
                    UniquenessConstraint("name", "parent")
                }
            })
        try? model.freeze()
        return model
    }()

    /// Each folder's path, sorted.
    static func paths(of replica: Replica) throws -> [String] {
        let context = ManagedObjectContext(coordinator: replica.context.coordinator)
        return try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Folder")).map { folder in
                var names: [String] = []
                var next: ManagedObject? = folder
                while let current = next {
                    if case .string(let name) = try current.value(forKey: "name") { names.insert(name, at: 0) }
                    next = try current.object(forKey: "parent")
                }
                return names.joined(separator: "/")
            }.sorted()
        }
    }

    @Test func nestedFoldersMadeApartUnderOneRootEndAsOneTreeWithNoStoreStuck() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.hub(in: directory, for: Self.folderModel)
        let sqlite = try Replica(type: .sqlite, at: directory.file("a.sqlite"), hub: hub, model: Self.folderModel)
        let xml = try Replica(type: .xml, at: directory.file("b.xml"), hub: hub, start: 2_000, model: Self.folderModel)
        try sqlite.edit { context in _ = try SyncEngineTests.insert("Folder", ["name": "root"], in: context) }
        for replica in [sqlite, xml] { try await replica.engine.syncNow() }
        for replica in [sqlite, xml] {
            try replica.edit { context in
                var parent = try SyncEngineTests.first("Folder", in: context)
                for name in ["docs", "a", "b"] {
                    let folder = try SyncEngineTests.insert("Folder", ["name": .string(name)], in: context)
                    try folder.setObject(parent, forKey: "parent")
                    parent = folder
                }
            }
        }
        for replica in [sqlite, xml, sqlite] { try await replica.engine.syncNow() }
        let tree = ["root", "root/docs", "root/docs/a", "root/docs/a/b"]
        #expect(try Self.paths(of: sqlite) == tree)
        #expect(try Self.paths(of: xml) == tree)
        #expect(await xml.engine.resolvedObjects() == hub.resolvedObjects())
    }

    @Test func aUniqueKeySetToNullPartsTheObjectsAndEveryReplicaShowsBoth() async throws {
        let directory = try TemporaryDirectory()
        let (hub, sqlite, xml) = try await Self.authorsOfOneNameMadeApart(in: directory)
        #expect(try sqlite.dump().count == 3)

        // The replica whose author showed for both shows the other again once it parts them.
        sqlite.wall.set(3_000)
        try sqlite.edit { context in try SyncEngineTests.first("Author", in: context).setValue(.null, forKey: "name") }
        try await sqlite.engine.syncNow()
        let parted = [
            "Author nobody of [\"Earthsea\"]", "Author nobody of [\"The Dispossessed\"]", "Book Earthsea 0 by nobody",
            "Book The Dispossessed 0 by nobody",
        ]
        #expect(try sqlite.dump() == parted)
        try await xml.engine.syncNow()
        #expect(try xml.dump() == parted)
        #expect(await sqlite.engine.resolvedObjects() == hub.resolvedObjects())
    }
}
