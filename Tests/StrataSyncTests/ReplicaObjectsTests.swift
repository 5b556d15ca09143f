import Foundation
import Strata
import StrataSQLite
import StrataSync
import StrataTestSupport
import StrataXML
import Testing

/// Two replicas of one model — a SQLite store and an XML store — turning their saved objects
/// into operations, exchanging them through a hub kept in memory, and making their stores show
/// what the merge rules resolve: after each exchange both stores hold the same objects.
@Suite struct ReplicaObjectsTests {
    static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32, default: 0)
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
            }
        }
        try? model.freeze()
        return model
    }()

    /// The hub: every operation pushed, in the order it arrived, and their merged state.
    final class Hub {
        var log: [SyncOperation] = []
        var state = MergeState()

        func push(_ operations: [SyncOperation]) throws {
            for operation in operations {
                try state.apply(operation)
                log.append(operation)
            }
        }
    }

    /// One replica: its store, its merged state and clock, and what it pulled so far.
    final class Replica {
        let context: ManagedObjectContext
        let wall: TestWallClock
        var clock: HybridLogicalClock
        var objects = ReplicaObjects()
        var state = MergeState()
        var pulled = 0

        init(type: StoreType, at url: URL, start: Int64) throws {
            let coordinator = try PersistentStoreCoordinator(model: ReplicaObjectsTests.model, storeTypes: [type])
            try coordinator.addStore(type: type.name, at: url)
            context = ManagedObjectContext(coordinator: coordinator)
            let wall = TestWallClock(start)
            self.wall = wall
            clock = HybridLogicalClock(replica: .random(), wallClock: { wall.read() })
        }

        /// Every saved object as operations against the merged state, stamped now, and the
        /// deletions of the objects the store no longer has; applied to the merged state.
        func localOperations() throws -> [SyncOperation] {
            let stamp = try clock.tick()
            let operations = try context.performAndWait {
                var shown: [GlobalID: ResolvedObject?] = [:]
                for entity in ["Author", "Book"] {
                    for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity)) {
                        shown[objects.globalID(of: object)] = try objects.shown(object)
                    }
                }
                for id in state.objects.keys where shown[id] == nil && objects.identities.objectID(for: id) != nil {
                    shown[id] = .some(nil)
                }
                return try state.operations(bringing: shown, at: stamp)
            }
            for operation in operations { try state.apply(operation) }
            return operations
        }

        /// Pushes its operations, pulls the others' and makes its store show the result.
        func sync(with hub: Hub) throws {
            try hub.push(try localOperations())
            let incoming = hub.log[pulled...].filter { $0.stamp.replica != clock.replica }
            pulled = hub.log.count
            var touched: Set<GlobalID> = []
            for operation in incoming {
                try clock.receive(operation.stamp)
                try state.apply(operation)
                touched.insert(operation.object)
            }
            try context.performAndWait {
                try objects.show(touched, resolvedBy: state, in: context)
                try context.save()
            }
            objects.bindSavedObjects()
        }

        /// The store's objects as sorted lines, for comparing replicas.
        func dump() throws -> [String] { try LibraryDump.lines(in: context) }

        func insert(_ entity: String, _ values: [String: AttributeValue]) throws -> ManagedObject {
            let object = try context.insertNewObject(forEntityName: entity)
            for (key, value) in values { try object.setValue(value, forKey: key) }
            return object
        }

        func first(_ entity: String) throws -> ManagedObject {
            try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: entity)).first)
        }
    }

    /// A hub, and a SQLite and an XML replica in `directory`, their clocks at the same time.
    static func replicas(in directory: TemporaryDirectory) throws -> (Hub, Replica, Replica) {
        (
            Hub(), try Replica(type: .sqlite, at: directory.file("a.sqlite"), start: 1_000),
            try Replica(type: .xml, at: directory.file("b.xml"), start: 1_000)
        )
    }

    @Test func aSQLiteAndAnXMLReplicaConvergeThroughAHub() throws {
        let directory = try TemporaryDirectory()
        let (hub, sqlite, xml) = try Self.replicas(in: directory)

        try sqlite.context.performAndWait {
            let author = try sqlite.insert("Author", ["name": "Le Guin"])
            let book = try sqlite.insert("Book", ["title": "Earthsea", "pages": .integer32(200)])
            try book.setObject(author, forKey: "author")
            try sqlite.context.save()
        }
        try sqlite.sync(with: hub)
        try xml.sync(with: hub)
        let first = try xml.dump()
        #expect(first == ["Author Le Guin of [\"Earthsea\"]", "Book Earthsea 200 by Le Guin"])

        // Concurrent edits of different keys both hold; of the same key, the later clock wins.
        sqlite.wall.set(2_000)
        xml.wall.set(2_500)
        try sqlite.context.performAndWait {
            let book = try sqlite.first("Book")
            try book.setValue("A Wizard of Earthsea", forKey: "title")
            try sqlite.first("Author").setValue("Ursula K. Le Guin", forKey: "name")
            try sqlite.context.save()
        }
        try xml.context.performAndWait {
            try xml.first("Book").setValue(.integer32(183), forKey: "pages")
            try xml.first("Author").setValue("U. K. Le Guin", forKey: "name")
            try xml.context.save()
        }
        for replica in [sqlite, xml, sqlite] { try replica.sync(with: hub) }
        let expected = [
            "Author U. K. Le Guin of [\"A Wizard of Earthsea\"]", "Book A Wizard of Earthsea 183 by U. K. Le Guin",
        ]
        let (a, b) = (try sqlite.dump(), try xml.dump())
        #expect(a == expected)
        #expect(b == expected)

        // The XML replica deletes the author while the SQLite one adds a book by them: the
        // deletion wins, and the new book is left without an author on both.
        sqlite.wall.set(3_000)
        xml.wall.set(3_000)
        try xml.context.performAndWait {
            try xml.context.delete(try xml.first("Author"))
            try xml.context.save()
        }
        try sqlite.context.performAndWait {
            let book = try sqlite.insert("Book", ["title": "Tehanu", "pages": .integer32(250)])
            try book.setObject(try sqlite.first("Author"), forKey: "author")
            try sqlite.context.save()
        }
        for replica in [sqlite, xml, sqlite] { try replica.sync(with: hub) }
        let afterDeletion = ["Book A Wizard of Earthsea 183 by nobody", "Book Tehanu 250 by nobody"]
        let (c, d) = (try sqlite.dump(), try xml.dump())
        #expect(c == afterDeletion)
        #expect(d == afterDeletion)
        #expect(hub.state.resolvedObjects() == sqlite.state.resolvedObjects())
        #expect(hub.state.resolvedObjects() == xml.state.resolvedObjects())
        // Nothing is left to push.
        #expect(try sqlite.localOperations() == [])
        #expect(try xml.localOperations() == [])
    }

    @Test func aBookMovedToTwoAuthorsAtOnceEndsWithTheLaterOnBothSides() throws {
        let directory = try TemporaryDirectory()
        let (hub, sqlite, xml) = try Self.replicas(in: directory)
        try sqlite.context.performAndWait {
            let book = try sqlite.insert("Book", ["title": "Dune", "pages": .integer32(412)])
            try book.setObject(try sqlite.insert("Author", ["name": "Herbert"]), forKey: "author")
            _ = try sqlite.insert("Author", ["name": "Anderson"])
            _ = try sqlite.insert("Author", ["name": "Asimov"])
            try sqlite.context.save()
        }
        for replica in [sqlite, xml] { try replica.sync(with: hub) }
        func author(named name: String, in replica: Replica) throws -> ManagedObject {
            var request = FetchRequest<ManagedObject>(entityName: "Author")
            request.predicate = try FetchPredicate(format: "name == %@", name)
            return try #require(try replica.context.fetch(request).first)
        }
        sqlite.wall.set(2_000)
        xml.wall.set(2_500)
        try sqlite.context.performAndWait {
            try sqlite.first("Book").setObject(try author(named: "Anderson", in: sqlite), forKey: "author")
            try sqlite.context.save()
        }
        try xml.context.performAndWait {
            try xml.first("Book").setObject(try author(named: "Asimov", in: xml), forKey: "author")
            try xml.context.save()
        }
        for replica in [sqlite, xml, sqlite] { try replica.sync(with: hub) }
        let expected = [
            "Author Anderson of []", "Author Asimov of [\"Dune\"]", "Author Herbert of []", "Book Dune 412 by Asimov",
        ]
        let (a, b) = (try sqlite.dump(), try xml.dump())
        #expect(a == expected)
        #expect(b == expected)
        #expect(try sqlite.localOperations() == [])
        #expect(try xml.localOperations() == [])
    }
}
