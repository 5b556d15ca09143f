import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// Names longer than PostgreSQL keeps (63 bytes) are clipped with a hash, column by column: a
/// query finds the column of a to-one's entity number by its role, never by adding `._ent` to
/// the relationship's (already clipped) column name.
@Suite struct PostgresLongNameTests {
    /// A relationship name of 70 bytes: its column and its `._ent` column are clipped, each
    /// from its own whole name.
    static let relationship = "visitedPlace" + String(repeating: "x", count: 58)

    static let model: ManagedObjectModel = {
        ManagedObjectModel {
            EntityDescription("Place") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("visits", destination: "Visit", inverse: relationship)
            }
            EntityDescription("Town", parent: "Place") { AttributeDescription("mayor", .string) }
            EntityDescription("Visit") {
                AttributeDescription("note", .string)
                RelationshipDescription.toOne(relationship, destination: "Place", inverse: "visits")
            }
        }
    }()

    @Test func aToOneWhoseColumnsAreClippedIsComparedInSQL() throws {
        let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("long"))
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.postgres])
        let store = try coordinator.addStore(type: "PostgreSQL", at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let town = try context.performAndWait {
            let town = try context.insertNewObject(forEntityName: "Town")
            try town.setValue("Lyon", forKey: "name")
            let place = try context.insertNewObject(forEntityName: "Place")
            try place.setValue("Field", forKey: "name")
            for (note, target) in [("market", town), ("walk", place)] {
                let visit = try context.insertNewObject(forEntityName: "Visit")
                try visit.setValue(.string(note), forKey: "note")
                try visit.setObject(target, forKey: Self.relationship)
            }
            try context.save()
            return town.objectID
        }
        let request = StoreFetchRequest(
            entityName: "Visit",
            predicate: try FetchPredicate(format: "%K == %@", arguments: [Self.relationship, town]))
        guard case .snapshots(let found) = try store.execute(request) else {
            Issue.record("The fetch gave no snapshots.")
            return
        }
        #expect(found.map { $0.values["note"] } == [.string("market")])
    }
}
