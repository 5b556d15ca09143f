import Foundation
import Strata

/// V: batch deletions, updates and inserts change exactly what they say in one save, with
/// delete rules, versions and uniqueness constraints as in a context's save, and contexts
/// take their changes in through `mergeChanges(fromRemoteContextSave:into:)`.
enum BatchRequestChecks {
    static var all: [ConformanceCheck] {
        [
            deleteByPredicate, deleteByObjectIDs, deleteCascadesAndNullifies, deleteRefusedByDeny, updateSetsValues,
            constantUpdateRaisesVersions, updateExpressionsReadValuesBeforeTheUpdate, updateValueThatDoesNotFit,
            updateRefusesRelationships, insertDictionaries, insertFromHandler, insertUpserts, mergeIntoContexts,
        ]
    }

    private static let category = ConformanceCategory.batchRequests

    static let deleteByPredicate = category.check(
        "deleteByPredicate",
        "A batch deletion removes exactly the objects its predicate matches and returns their IDs, also after "
            + "reopening."
    ) { harness in
        let deleted: [ObjectID] = try harness.withStore(configuration: ConformanceModel.records) { stack in
            let ids = try stack.saveSamples(1...10)
            var request = BatchDeleteRequest(
                entityName: ConformanceModel.sample, predicate: try FetchPredicate(format: "serial > 6"))
            request.resultType = .objectIDs
            let result = try stack.coordinator.execute(request)
            try expectEqual(Set(result.objectIDs ?? []), Set(ids[6...]), "the deleted IDs")
            try expectEqual(result.changes.deletedObjectIDs, Set(ids[6...]), "the deletions in the result's changes")
            return Array(ids[6...])
        }
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            try expectEqual(try stack.storedSamples().map(\.serial), (1...6).map { .integer64($0) }, "the serials left")
            for id in deleted { try expect(try stack.store.snapshot(for: id) == nil, "\(id) is still stored.") }
        }
    }

    static let deleteByObjectIDs = category.check(
        "deleteByObjectIDs",
        "A batch deletion of object IDs removes those objects and counts them, an ID given twice once."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            let ids = try stack.saveSamples(1...5)
            var request = BatchDeleteRequest(objectIDs: [ids[0], ids[3], ids[0]])
            request.resultType = .count
            try expectEqual(try stack.coordinator.execute(request).count, 2, "the count of deleted objects")
            try expectEqual(
                try stack.storedSamples().map(\.serial), [2, 3, 5].map { .integer64($0) }, "the serials left")
        }
    }

    static let deleteCascadesAndNullifies = category.check(
        "deleteCascadesAndNullifies",
        "A batch deletion applies delete rules: a cascade deletes the children, a nullify empties the members' "
            + "to-one, and the result's changes list both."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let root = try stack.insert("Node", ["name": "root"])
            let child = try stack.insert("Node", ["name": "child"])
            let team = try stack.insert("Team", ["serial": 1, "name": "Blue"])
            let person = try stack.insert("Person", ["serial": 1, "name": "Ada"])
            try stack.run {
                try child.setObject(root, forKey: "parent")
                try person.setObject(team, forKey: "team")
            }
            try stack.save()
            let nodes = try stack.coordinator.executeListing(
                BatchDeleteRequest(entityName: "Node", predicate: try FetchPredicate(format: "name == 'root'")))
            try expectEqual(
                nodes.changes.deletedObjectIDs, [root.objectID, child.objectID], "the Nodes the cascade deleted")
            let teams = try stack.coordinator.executeListing(BatchDeleteRequest(entityName: "Team"))
            try expect(teams.changes.updatedObjectIDs.contains(person.objectID), "The member was not updated.")
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            try expectEqual(try reader.objects("Node").count, 0, "the number of Nodes left")
            let people = try reader.objects("Person")
            try expectEqual(people.count, 1, "the number of People left")
            try reader.run {
                try expect(try people[0].object(forKey: "team") == nil, "The member's team was not nullified.")
            }
        }
    }

    static let deleteRefusedByDeny = category.check(
        "deleteRefusedByDeny",
        "A batch deletion that would break a deny rule fails naming the relationship and deletes nothing."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let vault = try stack.insert("Vault", ["name": "v"])
            let item = try stack.insert("Item", ["name": "i"])
            try stack.insert("Vault", ["name": "empty"])
            try stack.run { try item.setObject(vault, forKey: "vault") }
            try stack.save()
            try expectError(
                "a validation error naming 'items'",
                { _ = try stack.coordinator.execute(BatchDeleteRequest(entityName: "Vault")) }
            ) { error in
                (error as? ContextError)?.code == .validation && "\(error)".contains("items")
            }
            try expectEqual(
                try CheckStack(coordinator: stack.coordinator, store: stack.store).objects("Vault").count, 2,
                "the number of Vaults after the refused deletion")
        }
    }

    static let updateSetsValues = category.check(
        "updateSetsValues",
        "A batch update sets constants and expressions (evaluated on each object) on exactly the matching "
            + "objects, adds one to their versions, and leaves the others alone."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            let ids = try stack.saveSamples(1...6)
            var request = BatchUpdateRequest(
                entityName: ConformanceModel.sample, predicate: try FetchPredicate(format: "serial <= 3"),
                propertiesToUpdate: [
                    "string": .constant("batched"),
                    "int64": try FetchExpression(format: "serial * 10"),
                ])
            request.resultType = .objectIDs
            let result = try stack.coordinator.execute(request)
            try expectEqual(Set(result.objectIDs ?? []), Set(ids[..<3]), "the updated IDs")
            let stored = try stack.storedSamples()
            for snapshot in stored {
                guard case .integer64(let serial)? = snapshot.values["serial"] else { continue }
                let updated = serial <= 3
                try expectEqual(
                    snapshot.values["string"], .string(updated ? "batched" : "s\(serial)"), "Sample \(serial)'s string")
                try expectEqual(
                    snapshot.values["int64"], updated ? .integer64(serial * 10) : .null, "Sample \(serial)'s int64")
                try expectEqual(snapshot.version, updated ? 2 : 1, "Sample \(serial)'s version")
            }
        }
    }

    static let constantUpdateRaisesVersions = category.check(
        "constantUpdateRaisesVersions",
        "A batch update of constants only (which a store declaring batchOperations may run itself) sets exactly "
            + "the matching objects, raises their versions by one, and a later context save of them conflicts with "
            + "nothing it read afterwards."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            let ids = try stack.saveSamples(1...4)
            var request = BatchUpdateRequest(
                entityName: ConformanceModel.sample, predicate: try FetchPredicate(format: "int16 == 1"),
                propertiesToUpdate: ["double": .constant(.double(0.5)), "string": .constant(.null)])
            request.resultType = .objectIDs
            let result = try stack.coordinator.execute(request)
            try expectEqual(Set(result.objectIDs ?? []), [ids[0], ids[3]], "the updated IDs")
            for snapshot in try stack.storedSamples() {
                let updated = snapshot.values["int16"] == .integer16(1)
                try expectEqual(
                    snapshot.values["double"], updated ? .double(0.5) : .null, "\(snapshot.serial)'s double")
                try expectEqual(snapshot.version, updated ? 2 : 1, "\(snapshot.serial)'s version")
            }
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            try reader.run {
                let object = try reader.context.existingObject(with: ids[0])
                try expectEqual(try object.value(forKey: "string"), .null, "the updated string read by a new context")
                try object.setValue(.string("after"), forKey: "string")
                try reader.context.save()
            }
            try expectEqual(try stack.store.snapshot(for: ids[0])?.version, 3, "the version after a later save")
        }
    }

    static let updateExpressionsReadValuesBeforeTheUpdate = category.check(
        "updateExpressionsReadValuesBeforeTheUpdate",
        "A batch update whose predicate and expressions compute with attributes (which a store declaring "
            + "batchOperations may evaluate itself) works each new value out from the object as it was before the "
            + "update."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            _ = try stack.saveSamples(1...5)
            var request = BatchUpdateRequest(
                entityName: ConformanceModel.sample, predicate: try FetchPredicate(format: "serial * 2 > 4"),
                propertiesToUpdate: [
                    "serial": try FetchExpression(format: "serial + 100"),
                    "int32": try FetchExpression(format: "serial"),
                    "int64": try FetchExpression(format: "serial * int16 - 1"),
                ])
            request.resultType = .count
            try expectEqual(try stack.coordinator.execute(request).count, 3, "the count of updated objects")
            let stored = try stack.storedSamples()
            try expectEqual(stored.map(\.serial), [1, 2, 103, 104, 105].map { .integer64($0) }, "the serials")
            for snapshot in stored.suffix(3) {
                guard case .integer64(let serial) = snapshot.serial else { continue }
                let old = serial - 100
                try expectEqual(snapshot.values["int32"], .integer32(Int32(old)), "Sample \(serial)'s int32")
                try expectEqual(snapshot.values["int64"], .integer64(old * (old % 3) - 1), "Sample \(serial)'s int64")
            }
        }
    }

    static let updateValueThatDoesNotFit = category.check(
        "updateValueThatDoesNotFit",
        "A batch update computing a value its attribute cannot hold fails with wrongType, and one computing null "
            + "for a non-optional attribute fails validation; neither changes anything."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            _ = try stack.saveSamples(1...4)
            let before = try stack.storedSamples()
            try expectError(
                "wrongType for an int16 of 40000",
                {
                    _ = try stack.coordinator.execute(
                        BatchUpdateRequest(
                            entityName: ConformanceModel.sample,
                            propertiesToUpdate: [
                                "int16": try FetchExpression(format: "serial * 20000"), "string": .constant("changed"),
                            ]))
                }
            ) { error in (error as? ContextError)?.code == .wrongType }
            try expectError(
                "a validation error for a null serial",
                {
                    _ = try stack.coordinator.execute(
                        BatchUpdateRequest(
                            entityName: ConformanceModel.sample,
                            propertiesToUpdate: [
                                "serial": try FetchExpression(format: "TERNARY(serial > 3, nil, serial)")
                            ]
                        ))
                }
            ) { error in (error as? ContextError)?.code == .validation && "\(error)".contains("serial") }
            try expectEqual(try stack.storedSamples(), before, "the samples after the failed updates")
        }
    }

    static let updateRefusesRelationships = category.check(
        "updateRefusesRelationships",
        "A batch update naming a relationship or an unknown key fails with unknownKey and changes nothing."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            try stack.insert("Person", ["serial": 1, "name": "Ada"])
            try stack.save()
            for key in ["team", "ghost"] {
                try expectError(
                    "unknownKey naming '\(key)'",
                    {
                        _ = try stack.coordinator.execute(
                            BatchUpdateRequest(entityName: "Person", propertiesToUpdate: [key: .constant(.null)]))
                    }
                ) { error in
                    (error as? ContextError)?.code == .unknownKey && "\(error)".contains("'\(key)'")
                }
            }
        }
    }

    static let insertDictionaries = category.check(
        "insertDictionaries",
        "A batch insert saves one object per dictionary, with defaults for the attributes left out, and counts "
            + "them; a key that is not an attribute fails it."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            var request = BatchInsertRequest(
                entityName: ConformanceModel.sample,
                objects: (1...4).map { ["serial": .integer64(Int64($0)), "string": .string("b\($0)")] })
            request.resultType = .count
            try expectEqual(try stack.coordinator.execute(request).count, 4, "the count of inserted objects")
            let stored = try stack.storedSamples()
            try expectEqual(stored.map(\.serial), (1...4).map { .integer64($0) }, "the inserted serials")
            try expectEqual(stored.first?.values["count"], .integer32(42), "the default of 'count'")
            try expectEqual(stored.first?.version, 1, "the version of an inserted object")
            try expectError(
                "unknownKey naming 'ghost'",
                {
                    _ = try stack.coordinator.execute(
                        BatchInsertRequest(entityName: ConformanceModel.sample, objects: [["serial": 9, "ghost": 1]]))
                }
            ) { error in
                (error as? ContextError)?.code == .unknownKey && "\(error)".contains("'ghost'")
            }
            try expectEqual(try stack.storedSamples().count, 4, "the number of Samples after the refused insert")
        }
    }

    static let insertFromHandler = category.check(
        "insertFromHandler", "A batch insert from a handler saves one object per call until the handler says stop."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            let counter = Locked(0)
            var request = BatchInsertRequest(entityName: ConformanceModel.sample) { values in
                let next = counter.withLock { count in
                    count += 1
                    return count
                }
                guard next <= 7 else { return true }
                values["serial"] = .integer64(Int64(next))
                return false
            }
            request.resultType = .objectIDs
            let result = try stack.coordinator.execute(request)
            try expectEqual(result.objectIDs?.count, 7, "the number of inserted IDs")
            try expectEqual(try stack.storedSamples().map(\.serial), (1...7).map { .integer64($0) }, "the serials")
        }
    }

    static let insertUpserts = category.check(
        "insertUpserts",
        "A batch insert of an object clashing with a saved one on a uniqueness constraint updates the saved "
            + "object instead, as Core Data's does."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let saved = try stack.insert("Member", ["email": "a@example.com", "name": "Old", "visits": .integer32(2)])
            try stack.save()
            var request = BatchInsertRequest(
                entityName: "Member",
                objects: [["email": "a@example.com", "name": "New"], ["email": "b@example.com", "name": "Bea"]])
            request.resultType = .objectIDs
            let result = try stack.coordinator.execute(request)
            try expect(result.objectIDs?.contains(saved.objectID) == true, "The upserted Member's ID is not listed.")
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            let members = try reader.objects("Member", sortedBy: [FetchSortDescriptor("email")])
            try expectEqual(members.count, 2, "the number of Members")
            try reader.run {
                try expectEqual(members[0].objectID, saved.objectID, "the upserted Member's ID")
                try expectEqual(try members[0].value(forKey: "name"), .string("New"), "the upserted Member's name")
                try expectEqual(try members[0].value(forKey: "visits"), .integer32(2), "the upserted Member's visits")
            }
        }
    }

    static let mergeIntoContexts = category.check(
        "mergeIntoContexts",
        "mergeChanges(fromRemoteContextSave:into:) brings a batch request's changes into a context: updated "
            + "objects show the new values, deleted ones leave it."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            let ids = try stack.saveSamples(1...3)
            let objects = try stack.run { try ids.map { try stack.context.existingObject(with: $0) } }
            let update = try stack.coordinator.executeListing(
                BatchUpdateRequest(
                    entityName: ConformanceModel.sample, predicate: try FetchPredicate(format: "serial == 1"),
                    propertiesToUpdate: ["string": .constant("merged")]))
            let delete = try stack.coordinator.executeListing(BatchDeleteRequest(objectIDs: [ids[2]]))
            try ManagedObjectContext.mergeChanges(fromRemoteContextSave: update.changes, into: [stack.context])
            try ManagedObjectContext.mergeChanges(fromRemoteContextSave: delete.changes, into: [stack.context])
            try stack.run {
                try expectEqual(
                    try objects[0].value(forKey: "string"), .string("merged"), "the updated Sample's string")
                try expect(objects[2].managedObjectContext == nil, "The deleted Sample is still in the context.")
                try expectEqual(
                    try stack.context.count(for: FetchRequest<ManagedObject>(entityName: "Sample")), 2, "the count")
            }
        }
    }
}
