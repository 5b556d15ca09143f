import Foundation
import Strata

/// P: the store's errors are typed `StoreError`s with the documented codes, naming the store,
/// entity, object or key.
enum ErrorChecks {
    static var all: [ConformanceCheck] {
        [
            unknownEntityInFetch, unknownEntityInPermanentIDs, unknownEntityInSave, unknownObjectInRelatedObjects,
            unknownRelationshipInRelatedObjects, toOneInRelatedObjects, wrongValueType, unknownKey, temporaryIDInSave,
            foreignStoreIDInSave, toOneToWrongEntity, toManyWithWrongEntity, readOnlyNamesTheStore,
        ]
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

    static let unknownEntityInSave = category.check(
        "unknownEntityInSave", "Saving an object of an entity the store does not hold throws unknownEntity naming it."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            let id = ObjectID(storeIdentifier: stack.store.identifier, entityName: "Person", reference: .integer(1))
            let change = StoreChangeSet.ObjectChange(objectID: id, values: ["serial": 1], expectedVersion: 0)
            try expectStoreError(.unknownEntity, naming: "Person") {
                try stack.save(StoreChangeSet(inserted: [change]))
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

    static let unknownRelationshipInRelatedObjects = category.check(
        "unknownRelationshipInRelatedObjects",
        "The members of a relationship the entity lacks throw unknownObject naming the relationship."
    ) { harness in try expectRelatedObjectsRefused("enemies", harness) }

    static let toOneInRelatedObjects = category.check(
        "toOneInRelatedObjects", "Asking for to-many members of a to-one relationship throws unknownObject naming it."
    ) { harness in try expectRelatedObjectsRefused("team", harness) }

    /// Asks for the members of `relationship` of a saved Person, which must throw unknownObject naming it.
    private static func expectRelatedObjectsRefused(_ relationship: String, _ harness: CheckHarness) throws {
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let person = try stack.insert("Person", ["serial": 1])
            try stack.save()
            try expectStoreError(.unknownObject, naming: relationship) {
                _ = try stack.store.relatedObjectIDs(of: person.objectID, relationship: relationship)
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
                try stack.save(StoreChangeSet(inserted: [change]))
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
                try stack.save(StoreChangeSet(inserted: [change]))
            }
        }
    }

    static let temporaryIDInSave = category.check(
        "temporaryIDInSave", "Saving an object under a temporary ID throws invalidChange and writes nothing."
    ) { harness in
        try harness.withStore { stack in
            let id = ObjectID.temporary(entityName: ConformanceModel.sample)
            try expectRefusedInsert(of: id, ["serial": 1], naming: "temporary", in: stack)
        }
    }

    static let foreignStoreIDInSave = category.check(
        "foreignStoreIDInSave", "Saving an object whose ID names another store throws invalidChange naming that store."
    ) { harness in
        try harness.withStore { stack in
            let other = UUID().uuidString
            let id = ObjectID(storeIdentifier: other, entityName: ConformanceModel.sample, reference: .integer(1))
            try expectRefusedInsert(of: id, ["serial": 1], naming: other, in: stack)
        }
    }

    static let toOneToWrongEntity = category.check(
        "toOneToWrongEntity", "A to-one reference to an object of another entity throws invalidChange naming the key."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let ids = try stack.store.permanentIDs(forEntities: ["Person", "Passport"])
            try expectRefusedInsert(of: ids[0], ["serial": 1, "team": .objectID(ids[1])], naming: "team", in: stack)
        }
    }

    static let toManyWithWrongEntity = category.check(
        "toManyWithWrongEntity", "A to-many member of another entity throws invalidChange naming the relationship."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let ids = try stack.store.permanentIDs(forEntities: ["Team", "Passport"])
            let change = StoreChangeSet.ObjectChange(
                objectID: ids[0], values: ["serial": 1], toManyRelationships: ["members": [ids[1]]], expectedVersion: 0)
            try expectStoreError(.invalidChange, naming: "members") {
                try stack.save(StoreChangeSet(inserted: [change]))
            }
            try expect(try stack.store.snapshot(for: ids[0]) == nil, "The refused insert of \(ids[0]) was written.")
        }
    }

    static let readOnlyNamesTheStore = category.check(
        "readOnlyNamesTheStore", "A save refused by a read-only store names the store by its file or identifier."
    ) { harness in
        if harness.isFileBacked {
            try harness.withStore { stack in
                try stack.insert(ConformanceModel.sample, ["serial": 1])
                try stack.save()
            }
        }
        try harness.withStore(options: StoreOptions(isReadOnly: true)) { stack in
            let name = stack.store.url?.path ?? stack.store.identifier
            // A read-only store may already refuse to hand out IDs, which it could not record.
            try expectStoreError(.readOnly, naming: name) {
                let id = try stack.store.permanentIDs(forEntities: [ConformanceModel.sample])[0]
                let change = StoreChangeSet.ObjectChange(objectID: id, values: ["serial": 2], expectedVersion: 0)
                try stack.save(StoreChangeSet(inserted: [change]))
            }
        }
    }

    /// Saves an insert of `id` with `values`, which must throw invalidChange naming `subject`
    /// and leave no object behind.
    private static func expectRefusedInsert(
        of id: ObjectID, _ values: [String: AttributeValue], naming subject: String, in stack: CheckStack
    ) throws {
        let change = StoreChangeSet.ObjectChange(objectID: id, values: values, expectedVersion: 0)
        try expectStoreError(.invalidChange, naming: subject) {
            try stack.save(StoreChangeSet(inserted: [change]))
        }
        let stored = try stack.objects(id.entityName).map(\.objectID)
        try expect(stored.isEmpty, "The refused insert of \(id) left objects behind: \(stored).")
    }

    /// Runs `body`, which must throw a `StoreError` with `code` whose message names `subject`.
    static func expectStoreError(_ code: StoreError.Code, naming subject: String?, _ body: () throws -> Void) throws {
        try expectError("a StoreError with code \(code)\(subject.map { " naming '\($0)'" } ?? "")", body) { error in
            guard let error = error as? StoreError, error.code == code else { return false }
            return subject.map { error.message.contains($0) } ?? true
        }
    }
}
