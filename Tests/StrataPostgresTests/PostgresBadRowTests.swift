import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// What a row on the server says is data: a to-one's entity number that names an entity other
/// than the destination or one of its subentities, or a string column holding bytes that are
/// not UTF-8, is `corrupt` when the row is read, never an object of that entity or a string.
@Suite struct PostgresBadRowTests {
    static let model = ManagedObjectModel {
        EntityDescription("Animal") { AttributeDescription("name", .string) }
        EntityDescription("Dog", parent: "Animal") { AttributeDescription("breed", .string) }
        EntityDescription("Person") {
            AttributeDescription("name", .string)
            RelationshipDescription.toOne("pet", destination: "Animal")
        }
    }

    /// The owner's own entity number (an entity of the model outside the destination's tree),
    /// and a number the model does not have.
    @Test(arguments: ["_ent", "999"])
    func aToOneNamingAnEntityOutsideItsDestinationIsCorrupt(_ stored: String) throws {
        let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("rows"))
        func open() throws -> ManagedObjectContext {
            let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.postgres])
            try coordinator.addStore(type: "PostgreSQL", at: url)
            return ManagedObjectContext(coordinator: coordinator)
        }
        func people(_ context: ManagedObjectContext) throws -> Int {
            try context.performAndWait { try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")).count }
        }
        let writer = try open()
        try writer.performAndWait {
            let dog = try writer.insertNewObject(forEntityName: "Dog")
            try dog.setValue(.string("Rex"), forKey: "name")
            try writer.insertNewObject(forEntityName: "Person").setValue(.objectID(dog.objectID), forKey: "pet")
            try writer.save()
        }
        #expect(try people(try open()) == 1)
        let location = try PostgresLocation(url: url)
        let connection = try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
        _ = try connection.execute("UPDATE \"\(location.schema)\".\"Person\" SET \"pet._ent\" = \(stored)")
        #expect {
            _ = try people(try open())
        } throws: { error in
            let store = (error as? StoreError) ?? ((error as? ContextError)?.underlying as? StoreError)
            return store?.code == .corrupt && store?.message.contains("entity number of 'Person.pet'") == true
        }
    }

    @Test func aStringColumnHoldingBytesThatAreNotUTF8IsCorrupt() throws {
        let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("utf8"))
        func names() throws -> [AttributeValue] {
            let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.postgres])
            try coordinator.addStore(type: "PostgreSQL", at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            return try context.performAndWait {
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")).map {
                    try $0.value(forKey: "name")
                }
            }
        }
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.postgres])
        try coordinator.addStore(type: "PostgreSQL", at: url)
        let writer = ManagedObjectContext(coordinator: coordinator)
        try writer.performAndWait {
            try writer.insertNewObject(forEntityName: "Person").setValue(.string("Ann"), forKey: "name")
            try writer.save()
        }
        #expect(try names() == [.string("Ann")])
        let location = try PostgresLocation(url: url)
        let connection = try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
        _ = try connection.execute("UPDATE \"\(location.schema)\".\"Person\" SET name = '\\xff41'::bytea")
        #expect {
            _ = try names()
        } throws: { error in
            let store = (error as? StoreError) ?? ((error as? ContextError)?.underlying as? StoreError)
            return store?.code == .corrupt && store?.message.contains("'Person.name'") == true
        }
    }
}
