import Strata

/// The model of tests where several threads or processes write one store: entries tagged with
/// their writer and numbered in the order it saved them.
public enum ContentionModel {
    /// `Entry` with `writer` (string) and `serial` (integer 64).
    public static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Entry") {
                AttributeDescription("writer", .string)
                AttributeDescription("serial", .integer64)
            }
        }
        try! model.freeze()  // A fixed, valid model: freezing cannot fail.
        return model
    }()

    /// Saves `count` entries tagged `writer` into `store`, one save each.
    public static func writeEntries(_ count: Int, as writer: String, into store: any IncrementalStore) throws {
        for serial in 0..<count {
            let id = try store.permanentIDs(forEntities: ["Entry"])[0]
            let values: [String: AttributeValue] = ["writer": .string(writer), "serial": .integer64(Int64(serial))]
            try store.save(StoreChangeSet(inserted: [.init(objectID: id, values: values, expectedVersion: 0)]))
        }
    }

    /// Saves one entry tagged `writer` through a new context of `coordinator` whose
    /// transaction author is `writer`.
    public static func saveEntry(tagged writer: String, through coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait { () throws in
            context.transactionAuthor = writer
            try context.insertNewObject(forEntityName: "Entry").setValue(.string(writer), forKey: "writer")
            try context.save()
        }
    }

    /// Every transaction of the persistent history of `coordinator`'s stores, with changes.
    public static func history(of coordinator: PersistentStoreCoordinator) throws -> [PersistentHistoryTransaction] {
        guard case .transactions(let transactions) = try coordinator.execute(.fetchHistory(after: .token(nil))) else {
            return []
        }
        return transactions
    }
}
