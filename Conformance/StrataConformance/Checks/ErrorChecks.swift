import Foundation
import Strata

/// P: the store's errors are typed `StoreError`s with the documented codes, naming the store,
/// entity, object or key.
enum ErrorChecks {
    static var all: [ConformanceCheck] {
        [unknownEntityInFetch, unknownEntityInPermanentIDs, unknownObjectInRelatedObjects, wrongValueType, unknownKey]
    }

    private static let category = ConformanceCategory.errors

    static let unknownEntityInFetch = category.check(
        "unknownEntityInFetch", "A fetch of an entity the store does not hold throws unknownEntity naming it."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            try expectStoreError(.unknownEntity, naming: "Person") {
                _ = try stack.store.execute(StoreFetchRequest(entityName: "Person"))
            }
        }
    }

    static let unknownEntityInPermanentIDs = category.check(
        "unknownEntityInPermanentIDs", "Asking for IDs of an unknown entity throws unknownEntity naming it."
    ) { harness in
        try harness.withStore { stack in
            try expectStoreError(.unknownEntity, naming: "Unicorn") {
                _ = try stack.store.permanentIDs(forEntities: ["Unicorn"])
            }
        }
    }

    static let unknownObjectInRelatedObjects = category.check(
        "unknownObjectInRelatedObjects", "The to-many members of an object the store lacks throw unknownObject."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let missing = try stack.store.permanentIDs(forEntities: ["Person"])[0]
            try expectStoreError(.unknownObject, naming: nil) {
                _ = try stack.store.relatedObjectIDs(of: missing, relationship: "friends")
            }
        }
    }

    static let wrongValueType = category.check(
        "wrongValueType", "Saving a value of the wrong type throws invalidChange naming the entity and key."
    ) { harness in
        try harness.withStore { stack in
            let id = try stack.store.permanentIDs(forEntities: [ConformanceModel.sample])[0]
            let change = StoreChangeSet.ObjectChange(
                objectID: id, values: ["serial": 1, "int16": "sixteen"], expectedVersion: 0)
            try expectStoreError(.invalidChange, naming: "int16") {
                try stack.store.save(StoreChangeSet(inserted: [change]))
            }
            try expect(try stack.store.snapshot(for: id) == nil, "The refused insert of \(id) was written.")
        }
    }

    static let unknownKey = category.check(
        "unknownKey", "Saving a key the entity lacks throws invalidChange naming the key."
    ) { harness in
        try harness.withStore { stack in
            let id = try stack.store.permanentIDs(forEntities: [ConformanceModel.sample])[0]
            let change = StoreChangeSet.ObjectChange(
                objectID: id, values: ["serial": 1, "colour": "red"], expectedVersion: 0)
            try expectStoreError(.invalidChange, naming: "colour") {
                try stack.store.save(StoreChangeSet(inserted: [change]))
            }
        }
    }

    /// Runs `body`, which must throw a `StoreError` with `code` whose message names `subject`.
    static func expectStoreError(_ code: StoreError.Code, naming subject: String?, _ body: () throws -> Void) throws {
        try expectError("a StoreError with code \(code)\(subject.map { " naming '\($0)'" } ?? "")", body) { error in
            guard let error = error as? StoreError, error.code == code else { return false }
            return subject.map { error.message.contains($0) } ?? true
        }
    }
}
