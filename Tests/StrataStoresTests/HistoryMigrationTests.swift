import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// A migration that copies a store carries its persistent history: transaction numbers, so that
/// readers' tokens stay good, with every change naming the object made from the changed one,
/// and the changes of objects that are gone naming none of the migrated store's.
@Suite struct HistoryMigrationTests {
    static let types = ["SQLite", "LMDB", "XML", "Binary"]
    static let pairs = types.flatMap { from in types.map { (from, $0) } }
    static let tracking = StoreOptions(tracksPersistentHistory: true)

    /// Saves through a context of `coordinator` whose author is `author`.
    static func save(
        as author: String, through coordinator: PersistentStoreCoordinator,
        _ body: @escaping (ManagedObjectContext) throws -> Void
    ) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait { () throws in
            context.transactionAuthor = author
            try body(context)
            try context.save()
        }
    }

    /// The entries' IDs by serial.
    static func entryIDs(in coordinator: PersistentStoreCoordinator) throws -> [Int64: ObjectID] {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait { () throws in
            var ids: [Int64: ObjectID] = [:]
            for entry in try context.fetch(FetchRequest<ManagedObject>(entityName: "Entry")) {
                guard case .integer64(let serial) = try entry.value(forKey: "serial") else { continue }
                ids[serial] = entry.objectID
            }
            return ids
        }
    }

    @Test(arguments: pairs)
    func aCopyingMigrationCarriesTheHistory(from sourceType: String, to destinationType: String) throws {
        let folder = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(
            model: ContentionModel.model, storeTypes: StoreType.builtInFileTypes)
        let source = try coordinator.addStore(
            type: sourceType, at: folder.file("source.\(sourceType)"), options: Self.tracking)
        try Self.save(as: "a", through: coordinator) { context in
            for serial in 0..<3 {
                let entry = try context.insertNewObject(forEntityName: "Entry")
                try entry.setValue(.integer64(Int64(serial)), forKey: "serial")
                try entry.setValue(.string("a"), forKey: "writer")
            }
        }
        let before = try Self.entryIDs(in: coordinator)
        try Self.save(as: "b", through: coordinator) { context in
            try context.existingObject(with: before[0]!).setValue(.string("b"), forKey: "writer")
        }
        try Self.save(as: "c", through: coordinator) { context in
            try context.delete(try context.existingObject(with: before[1]!))
        }

        let moved = try coordinator.migratePersistentStore(
            source, to: folder.file("destination.\(destinationType)"), type: destinationType, options: Self.tracking)
        let after = try Self.entryIDs(in: coordinator)
        let transactions = try ContentionModel.history(of: coordinator)
        #expect(transactions.map(\.token.transactionNumber) == [1, 2, 3])
        #expect(transactions.allSatisfy { $0.storeIdentifier == moved.identifier })
        #expect(transactions.map(\.author) == ["a", "b", "c"])
        let gone = try #require(transactions[2].changes?.first)
        #expect(gone.changeType == .delete)
        guard case .integer(let reference) = gone.changedObjectID.reference else {
            Issue.record("the deletion names \(gone.changedObjectID)")
            return
        }
        #expect(reference < 0)
        #expect(!after.values.contains(gone.changedObjectID))
        let inserted = transactions[0].changes?.map(\.changedObjectID) ?? []
        #expect(Set(inserted) == [after[0]!, after[2]!, gone.changedObjectID])
        let update = try #require(transactions[1].changes?.first)
        #expect(update.changedObjectID == after[0])
        #expect(update.updatedProperties == ["writer"])

        try Self.save(as: "d", through: coordinator) { context in
            try context.existingObject(with: after[2]!).setValue(.string("d"), forKey: "writer")
        }
        #expect(try ContentionModel.history(of: coordinator).last?.token.transactionNumber == 4)
    }

    @Test(arguments: [StoreType.lmdb, .binary])
    func aVersionMigrationKeepsTheHistoryAndRecordsNoneOfItsCopy(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("versioned.\(type.name)")
        let version1 = ManagedObjectModel {
            EntityDescription("Entry") { AttributeDescription("writer", .string) }
        }
        let version2 = ManagedObjectModel {
            EntityDescription("Entry") {
                AttributeDescription("writer", .string)
                AttributeDescription("note", .string)
            }
        }
        do {
            let coordinator = try PersistentStoreCoordinator(model: version1, storeTypes: [type])
            try coordinator.addStore(type: type.name, at: url, options: Self.tracking)
            for author in ["a", "b"] {
                try Self.save(as: author, through: coordinator) { context in
                    try context.insertNewObject(forEntityName: "Entry").setValue(.string(author), forKey: "writer")
                }
            }
        }
        try MigrationPlan(models: [version1, version2]).migrateStore(at: url, type: type, to: version2)
        let coordinator = try PersistentStoreCoordinator(model: version2, storeTypes: [type])
        try coordinator.addStore(type: type.name, at: url, options: Self.tracking)
        let transactions = try ContentionModel.history(of: coordinator)
        #expect(transactions.map(\.author) == ["a", "b"])
        #expect(transactions.map(\.token.transactionNumber) == [1, 2])
        let context = ManagedObjectContext(coordinator: coordinator)
        let ids = try context.performAndWait { () throws in
            Set(try context.fetch(FetchRequest<ManagedObject>(entityName: "Entry")).map(\.objectID))
        }
        #expect(Set(transactions.flatMap { $0.changes ?? [] }.map(\.changedObjectID)) == ids)
    }
}
