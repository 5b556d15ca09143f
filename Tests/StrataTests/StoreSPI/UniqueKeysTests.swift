import Testing

@testable import Strata

@Suite struct UniqueKeysTests {
    private static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Account") {
                AttributeDescription("handle", .string)
                AttributeDescription("region", .string)
                AttributeDescription("note", .string)
                UniquenessConstraint("handle", "region")
            }
            EntityDescription("Admin", parent: "Account") {
                AttributeDescription("badge", .integer32)
                UniquenessConstraint("badge")
            }
        }
        try? model.freeze()
        return model
    }()

    private func id(_ entity: String, _ number: Int64) -> ObjectID {
        ObjectID(storeIdentifier: "S", entityName: entity, reference: .integer(number))
    }

    private func change(
        _ id: ObjectID, _ values: [String: AttributeValue], changedKeys: Set<String>? = nil
    ) -> StoreChangeSet.ObjectChange {
        .init(objectID: id, values: values, expectedVersion: changedKeys == nil ? 0 : 1, changedKeys: changedKeys)
    }

    /// Runs the check with `stored` as the saved objects' values; returns the conflicts and the
    /// values the store was asked about.
    private func check(
        _ changes: StoreChangeSet, stored: [ObjectID: [String: AttributeValue]] = [:]
    ) throws -> (conflicts: [ConstraintConflict], asked: [[AttributeValue]]) {
        var asked: [[AttributeValue]] = []
        do {
            try changes.checkUniqueness(schema: Self.model.schema, storeName: "The test store") { keys, values in
                asked.append(values)
                let spanned = Set(keys.entityNames)
                return stored.filter { id, held in
                    spanned.contains(id.entityName) && keys.values(in: PropertyValues(held)) == values
                }.keys.sorted { $0.description < $1.description }
            }
        } catch let error as StoreError where error.code == .constraintConflict {
            #expect(error.message.contains("The test store"))
            return (error.constraintConflicts, asked)
        }
        return ([], asked)
    }

    @Test func theSchemaListsDeclaredAndInheritedConstraints() {
        let schema = Self.model.schema
        #expect(schema.uniqueKeys(of: "Account").map(\.keys) == [["handle", "region"]])
        #expect(schema.uniqueKeys(of: "Admin").map(\.keys) == [["handle", "region"], ["badge"]])
        #expect(schema.uniqueKeys(of: "Admin")[0].entityNames == ["Account", "Admin"])
        #expect(schema.uniqueKeys.count == 2)
    }

    @Test func twoInsertsWithTheSameValuesClashAndNamesBoth() throws {
        let values: [String: AttributeValue] = ["handle": "ada", "region": "eu"]
        let found = try check(
            StoreChangeSet(inserted: [change(id("Account", 1), values), change(id("Admin", 2), values)]))
        #expect(found.conflicts.count == 1)
        #expect(found.conflicts.first?.objectIDs == [id("Account", 1), id("Admin", 2)])
        #expect(found.conflicts.first?.values == [.string("ada"), .string("eu")])
        #expect(found.conflicts.first?.storedObjectID == nil)
    }

    @Test func anInsertClashingWithASavedObjectNamesIt() throws {
        let found = try check(
            StoreChangeSet(inserted: [change(id("Account", 2), ["handle": "ada", "region": "eu"])]),
            stored: [id("Account", 1): ["handle": "ada", "region": "eu"]])
        #expect(found.conflicts.first?.storedObjectID == id("Account", 1))
        #expect(found.conflicts.first?.constraint.entityName == "Account")
    }

    @Test func nullKeysAndPartlyEqualKeysNeverClash() throws {
        let found = try check(
            StoreChangeSet(inserted: [
                change(id("Account", 1), ["handle": "ada"]), change(id("Account", 2), ["handle": "ada"]),
                change(id("Account", 3), ["handle": "bo", "region": "eu"]),
                change(id("Account", 4), ["handle": "bo", "region": "us"]),
            ]))
        #expect(found.conflicts.isEmpty)
        #expect(found.asked.count == 2)
    }

    @Test func anUpdateLeavingItsKeysAloneAsksTheStoreNothing() throws {
        let found = try check(
            StoreChangeSet(updated: [
                change(id("Account", 1), ["handle": "ada", "region": "eu", "note": "x"], changedKeys: ["note"])
            ]),
            stored: [id("Account", 1): ["handle": "ada", "region": "eu"]])
        #expect(found.conflicts.isEmpty)
        #expect(found.asked.isEmpty)
    }

    @Test func savedObjectsTheSaveDeletesOrChangesDoNotClash() throws {
        let stored: [ObjectID: [String: AttributeValue]] = [
            id("Account", 1): ["handle": "ada", "region": "eu"], id("Account", 2): ["handle": "bo", "region": "eu"],
        ]
        let found = try check(
            StoreChangeSet(
                inserted: [change(id("Account", 3), ["handle": "ada", "region": "eu"])],
                updated: [change(id("Account", 2), ["handle": "cy", "region": "eu"], changedKeys: ["handle"])],
                deleted: [.init(objectID: id("Account", 1), expectedVersion: 1)]),
            stored: stored)
        #expect(found.conflicts.isEmpty)
        let taken = try check(
            StoreChangeSet(inserted: [change(id("Account", 3), ["handle": "bo", "region": "eu"])]), stored: stored)
        #expect(taken.conflicts.first?.storedObjectID == id("Account", 2))
    }

    @Test func aSubentitysOwnConstraintSpansOnlyItsObjects() throws {
        let found = try check(
            StoreChangeSet(inserted: [
                change(id("Admin", 1), ["handle": "a", "badge": .integer32(7)]),
                change(id("Admin", 2), ["handle": "b", "badge": .integer32(7)]),
            ]))
        #expect(found.conflicts.map(\.constraint.keys) == [["badge"]])
    }
}
