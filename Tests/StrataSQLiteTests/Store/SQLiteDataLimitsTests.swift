import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// What a damaged or crafted SQLite file says is data: counters and versions at their limits, a
/// row claiming another table's entity and a reference to an entity the model lacks are typed
/// errors, never a trap in the process reading them.
@Suite struct SQLiteDataLimitsTests {
    static let model = ManagedObjectModel {
        EntityDescription("Item") { AttributeDescription("name", .string) }
        EntityDescription("Tag") { AttributeDescription("label", .string) }
    }

    struct Stack {
        let folder: TemporaryDirectory
        let coordinator: PersistentStoreCoordinator
        let context: ManagedObjectContext
        var url: URL { folder.file("limits.sqlite") }

        init(_ folder: TemporaryDirectory) throws {
            self.folder = folder
            coordinator = try PersistentStoreCoordinator(model: SQLiteDataLimitsTests.model, storeTypes: [.sqlite])
            try coordinator.addStore(type: "SQLite", at: folder.file("limits.sqlite"))
            context = ManagedObjectContext(coordinator: coordinator)
        }

        func insert(_ entity: String, _ key: String, _ value: String) throws {
            try context.performAndWait {
                let object = try context.insertNewObject(forEntityName: entity)
                try object.setValue(.string(value), forKey: key)
                try context.save()
            }
        }

        func fetch(_ entity: String) throws -> [ManagedObject] {
            try context.performAndWait { Array(try context.fetch(FetchRequest<ManagedObject>(entityName: entity))) }
        }

        /// Runs `sql` on the file, as another process would.
        func run(_ sql: String) throws {
            try SQLiteConnection(path: url.path, mode: .readWrite).execute(script: sql)
        }
    }

    static func isCorrupt(_ error: any Error, saying text: String) -> Bool {
        HostileFileNames.isCorrupt(error, naming: text)
    }

    @Test(arguments: [Int64.max, Int64.max - 1])
    func aPrimaryKeyCounterAtItsLimitIsCorrupt(_ maximum: Int64) throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("Item", "name", "first")
        try stack.run("UPDATE Z_PRIMARYKEY SET Z_MAX = \(maximum) WHERE Z_NAME = 'Item'")
        if maximum == .max {
            #expect {
                try stack.insert("Item", "name", "second")
            } throws: { Self.isCorrupt($0, saying: "Z_MAX") }
        } else {
            try stack.insert("Item", "name", "the last key")
            #expect(try stack.fetch("Item").count == 2)
        }
    }

    @Test func aVersionAtItsLimitIsCorrupt() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("Item", "name", "first")
        try stack.run("UPDATE ZITEM SET Z_OPT = \(Int64.max)")
        let fresh = try Stack(stack.folder)
        let item = try #require(try fresh.fetch("Item").first)
        #expect {
            try fresh.context.performAndWait {
                try item.setValue("renamed", forKey: "name")
                try fresh.context.save()
            }
        } throws: { Self.isCorrupt($0, saying: "version \(Int64.max)") }
    }

    /// A row of `ZITEM` whose `Z_ENT` is `Tag`'s number came back from a fetch of items as a tag.
    @Test func aRowClaimingAnotherTablesEntityIsCorrupt() throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("Item", "name", "first")
        try stack.insert("Tag", "label", "red")
        try stack.run("UPDATE ZITEM SET Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag')")
        let fresh = try Stack(stack.folder)
        #expect {
            _ = try fresh.fetch("Item")
        } throws: { Self.isCorrupt($0, saying: "ZITEM does not hold") }
        #expect {
            _ = try fresh.context.performAndWait {
                try fresh.context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Item"))
            }
        } throws: { Self.isCorrupt($0, saying: "ZITEM does not hold") }
        #expect(try fresh.fetch("Tag").count == 1)
    }

    /// A row whose entity number the model does not have, whose version is missing, or whose
    /// column holds a value that is not of its attribute's type is `corrupt` when fetched,
    /// naming what is wrong.
    @Test(arguments: [
        ("UPDATE ZITEM SET Z_ENT = 999", "which its model does not know"),
        ("UPDATE ZITEM SET Z_OPT = NULL", "has no version (Z_OPT)"),
        ("UPDATE ZITEM SET ZNAME = x'ff00'", "which is not a valid String for 'Item.name'"),
    ])
    func aRowThatDoesNotReadIsCorrupt(_ sql: String, _ problem: String) throws {
        let stack = try Stack(TemporaryDirectory())
        try stack.insert("Item", "name", "first")
        try stack.run(sql)
        let fresh = try Stack(stack.folder)
        #expect {
            _ = try fresh.fetch("Item")
        } throws: { Self.isCorrupt($0, saying: problem) }
    }

    /// A reference to another store's object whose entity the model does not have is an
    /// `unknownEntity` error when followed, not a trap.
    @Test func aReferenceToAnUnknownEntityIsATypedError() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("diary.sqlite")
        let coordinator = try PersistentStoreCoordinator(model: CitiesAndVisits.model, storeTypes: [.sqlite])
        try coordinator.addStore(type: "InMemory", configuration: "Atlas")
        try coordinator.addStore(type: "SQLite", configuration: "Diary", at: url)
        let (cities, _) = try CitiesAndVisits.save(in: coordinator)
        let ghost = cities[0].uriString.replacingOccurrences(of: "/City/", with: "/Ghost/")
        try SQLiteConnection(path: url.path, mode: .readWrite).execute(
            script: "UPDATE ZVISIT SET ZCITY = '\(ghost)' WHERE ZNOTE = 'a'")
        let reader = ManagedObjectContext(coordinator: coordinator)
        try reader.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Visit")
            request.predicate = try FetchPredicate(format: "note == 'a'")
            let visit = try #require(try reader.fetch(request).first)
            let error = #expect(throws: ContextError.self) { try visit.object(forKey: "city") }
            #expect(error?.code == .unknownEntity && error?.message.contains("Ghost") == true)
        }
    }

    /// A to-one's entity-number column that names an entity other than the destination or one
    /// of its subentities (another entity of the model, a number the model lacks, text) is
    /// `corrupt` when the row is read; before, the relationship led to an object of that entity.
    @Test(arguments: ["(SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Car')", "999", "'Dog'"])
    func aToOneNamingAnEntityOutsideItsDestinationIsCorrupt(_ stored: String) throws {
        let model = ManagedObjectModel {
            EntityDescription("Animal") { AttributeDescription("name", .string) }
            EntityDescription("Dog", parent: "Animal") { AttributeDescription("breed", .string) }
            EntityDescription("Car") { AttributeDescription("make", .string) }
            EntityDescription("Person") {
                AttributeDescription("name", .string)
                RelationshipDescription.toOne("pet", destination: "Animal")
            }
        }
        let folder = try TemporaryDirectory()
        let url = folder.file("pets.sqlite")
        func open() throws -> ManagedObjectContext {
            let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite])
            try coordinator.addStore(type: "SQLite", at: url)
            return ManagedObjectContext(coordinator: coordinator)
        }
        let writer = try open()
        try writer.performAndWait {
            let dog = try writer.insertNewObject(forEntityName: "Dog")
            try dog.setValue(.string("Rex"), forKey: "name")
            let person = try writer.insertNewObject(forEntityName: "Person")
            try person.setValue(.objectID(dog.objectID), forKey: "pet")
            try writer.insertNewObject(forEntityName: "Car").setValue(.string("Fiat"), forKey: "make")
            try writer.save()
        }
        let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
        let column = try #require(
            try connection.cachedStatement("SELECT name FROM pragma_table_info('ZPERSON')").rows { row -> String? in
                if case .text(let name) = row.value(at: 0), name.hasSuffix("PET"), name != "ZPET" { return name }
                return nil
            }.compactMap { $0 }.first)
        let before = try open()
        #expect(
            try before.performAndWait { try before.fetch(FetchRequest<ManagedObject>(entityName: "Person")).count } == 1
        )
        try connection.execute(script: "UPDATE ZPERSON SET \(column) = \(stored)")
        let reader = try open()
        #expect {
            _ = try reader.performAndWait { try reader.fetch(FetchRequest<ManagedObject>(entityName: "Person")) }
        } throws: { Self.isCorrupt($0, saying: "entity number of 'pet'") }
    }
}
