import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// A migration of more objects than one of its batches holds keeps every ordered to-many
/// relationship whole and in order, also when an owner's members come in later batches.
@Suite struct StoreMigrationBatchTests {
    static let owners = 20
    static let itemsPerOwner = 520

    static func model() throws -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Node") {
                AttributeDescription("number", .integer64, optional: false)
                RelationshipDescription.toMany("items", destination: "Node", inverse: "owner", ordered: true)
                RelationshipDescription.toOne("owner", destination: "Node", inverse: "items")
            }
        }
        try model.freeze()
        return model
    }

    /// Each owner's item numbers in the relationship's order, by owner number.
    static func orders(in coordinator: PersistentStoreCoordinator) throws -> [Int64: [Int64]] {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Node")
            request.predicate = try FetchPredicate(format: "number < %d", owners)
            var orders: [Int64: [Int64]] = [:]
            for owner in try context.fetch(request) {
                guard case .integer64(let number) = try owner.value(forKey: "number") else { continue }
                orders[number] = try owner.objects(forKey: "items").map { item in
                    guard case .integer64(let itemNumber) = try item.value(forKey: "number") else { return -1 }
                    return itemNumber
                }
            }
            return orders
        }
    }

    @Test(arguments: ["SQLite", "LMDB"])
    func orderedMembersInLaterBatchesArriveInOrder(to destinationType: String) throws {
        let directory = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(
            model: try Self.model(), storeTypes: StoreType.builtInFileTypes)
        let source = try coordinator.addStore(type: "SQLite", at: directory.file("source.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let owners = try (0..<Self.owners).map { number in
                let owner = try context.insertNewObject(forEntityName: "Node")
                try owner.setValue(.integer64(Int64(number)), forKey: "number")
                return owner
            }
            for (index, owner) in owners.enumerated() {
                let first = Self.owners + index * Self.itemsPerOwner
                let items = try (first..<first + Self.itemsPerOwner).reversed().map { number in
                    let item = try context.insertNewObject(forEntityName: "Node")
                    try item.setValue(.integer64(Int64(number)), forKey: "number")
                    return item
                }
                try owner.setObjects(items, forKey: "items")
            }
            try context.save()
        }
        let expected = try Self.orders(in: coordinator)
        #expect(expected.count == Self.owners && expected.values.allSatisfy { $0.count == Self.itemsPerOwner })

        try coordinator.migratePersistentStore(
            source, to: directory.file("destination.store"), type: destinationType)

        #expect(try Self.orders(in: coordinator) == expected)
        let counter = ManagedObjectContext(coordinator: coordinator)
        let count = try counter.performAndWait {
            try counter.count(for: FetchRequest<ManagedObject>(entityName: "Node"))
        }
        #expect(count == Self.owners * (Self.itemsPerOwner + 1))
    }
}
