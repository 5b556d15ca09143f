import Foundation
import Strata

/// V (continued): batch deletions through every relationship storage and delete rule, whether
/// the store carries them out itself or the core does through a context.
enum BatchDeleteChecks {
    static var all: [ConformanceCheck] {
        [
            deleteEmptiesManyToMany, deleteCascadesThroughChainsAndCycles, deleteRaisesNullifiedVersions,
            deleteAllowsDenyWhenDestinationsGo, deleteRefusesUnknownObject, deleteOfSubentities,
            deleteRefusedByRequiredInverse, unlistedResultsLeaveNoStaleSnapshots,
        ]
    }

    private static let category = ConformanceCategory.batchRequests

    static let deleteEmptiesManyToMany = category.check(
        "deleteEmptiesManyToMany",
        "A batch deletion removes the deleted objects from many-to-many relationships of the objects left, "
            + "which count as updated."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let ada = try stack.insert("Person", ["serial": 1, "name": "Ada"])
            let bob = try stack.insert("Person", ["serial": 2, "name": "Bob"])
            let cy = try stack.insert("Person", ["serial": 3, "name": "Cy"])
            try stack.run { try ada.setObjects([bob, cy], forKey: "friends") }
            try stack.save()
            let result = try stack.coordinator.executeListing(
                BatchDeleteRequest(entityName: "Person", predicate: try FetchPredicate(format: "serial == 2")))
            try expectEqual(result.changes.deletedObjectIDs, [bob.objectID], "the deleted People")
            try expectEqual(
                result.changes.updatedObjectIDs, [ada.objectID], "the People whose friends changed")
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            let left = try reader.objects("Person", sortedBy: [FetchSortDescriptor("serial")])
            try expectEqual(left.count, 2, "the number of People left")
            try reader.run {
                try expectEqual(
                    try left[0].objects(forKey: "friends").map(\.objectID), [cy.objectID], "Ada's friends")
                try expectEqual(
                    try left[1].objects(forKey: "friends").map(\.objectID), [ada.objectID], "Cy's friends")
            }
        }
    }

    static let deleteCascadesThroughChainsAndCycles = category.check(
        "deleteCascadesThroughChainsAndCycles",
        "A batch deletion follows cascade rules through chains of any depth and through cycles, and lists "
            + "every deleted object in its changes but only the matched ones in its IDs."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let nodes = try (0..<4).map { try stack.insert("Node", ["name": .string("n\($0)")]) }
            let rings = try (0..<3).map { try stack.insert("Ring", ["name": .string("r\($0)")]) }
            let spare = try stack.insert("Node", ["name": "spare"])
            try stack.run {
                for (parent, child) in zip(nodes, nodes.dropFirst()) { try child.setObject(parent, forKey: "parent") }
                for (ring, next) in zip(rings, rings.dropFirst() + [rings[0]]) {
                    try ring.setObject(next, forKey: "next")
                }
            }
            try stack.save()
            var request = BatchDeleteRequest(entityName: "Node", predicate: try FetchPredicate(format: "name == 'n0'"))
            request.resultType = .objectIDs
            let result = try stack.coordinator.execute(request)
            try expectEqual(result.objectIDs, [nodes[0].objectID], "the matched Nodes")
            try expectEqual(result.changes.deletedObjectIDs, Set(nodes.map(\.objectID)), "the deleted Nodes")
            let ringResult = try stack.coordinator.executeListing(BatchDeleteRequest(objectIDs: [rings[1].objectID]))
            try expectEqual(ringResult.changes.deletedObjectIDs, Set(rings.map(\.objectID)), "the deleted Rings")
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            try expectEqual(try reader.objects("Node").map(\.objectID), [spare.objectID], "the Nodes left")
            try expectEqual(try reader.objects("Ring").count, 0, "the number of Rings left")
        }
    }

    static let deleteRaisesNullifiedVersions = category.check(
        "deleteRaisesNullifiedVersions",
        "A batch deletion raises by one the version of each object a nullify rule changes, once however many of "
            + "its destinations go, and leaves the others' alone."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let manager = try stack.insert("Person", ["serial": 1, "name": "Boss"])
            let reports = try (2...4).map { try stack.insert("Person", ["serial": .integer64(Int64($0))]) }
            let bystander = try stack.insert("Person", ["serial": 9, "name": "Bystander"])
            try stack.run { try manager.setObjects(reports, forKey: "reports") }
            try stack.save()
            _ = try stack.coordinator.execute(
                BatchDeleteRequest(entityName: "Person", predicate: try FetchPredicate(format: "serial BETWEEN {2, 3}"))
            )
            try expectEqual(try stack.store.snapshot(for: manager.objectID)?.version, 2, "the manager's version")
            try expectEqual(try stack.store.snapshot(for: bystander.objectID)?.version, 1, "the bystander's version")
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            let boss = try reader.objects("Person", where: "serial == 1")
            try reader.run {
                try expectEqual(
                    try boss.first?.objects(forKey: "reports").map(\.objectID), [reports[2].objectID],
                    "the manager's reports")
            }
            try expectEqual(
                try stack.store.snapshot(for: reports[2].objectID)?.values["manager"], .objectID(manager.objectID),
                "the manager of the report left")
        }
    }

    static let deleteAllowsDenyWhenDestinationsGo = category.check(
        "deleteAllowsDenyWhenDestinationsGo",
        "A deny rule does not refuse a batch deletion that deletes the destinations too."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let vault = try stack.insert("Vault", ["name": "v"])
            let item = try stack.insert("Item", ["name": "i"])
            try stack.run { try item.setObject(vault, forKey: "vault") }
            try stack.save()
            let result = try stack.coordinator.executeListing(
                BatchDeleteRequest(objectIDs: [vault.objectID, item.objectID]))
            try expectEqual(result.changes.deletedObjectIDs, [vault.objectID, item.objectID], "the deleted objects")
            try expect(try stack.store.snapshot(for: vault.objectID) == nil, "The Vault is still stored.")
        }
    }

    static let deleteRefusesUnknownObject = category.check(
        "deleteRefusesUnknownObject",
        "A batch deletion of an object ID the store does not hold fails with objectNotFound and deletes nothing."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            let ids = try stack.saveSamples(1...2)
            _ = try stack.coordinator.execute(BatchDeleteRequest(objectIDs: [ids[1]]))
            try expectError(
                "objectNotFound",
                { _ = try stack.coordinator.execute(BatchDeleteRequest(objectIDs: [ids[0], ids[1]])) }
            ) { error in
                (error as? ContextError)?.code == .objectNotFound
            }
            try expect(try stack.store.snapshot(for: ids[0]) != nil, "The object stored was deleted.")
        }
    }

    static let deleteOfSubentities = category.check(
        "deleteOfSubentities",
        "A batch deletion of an entity deletes its sub-entities' objects unless includesSubentities is false, and "
            + "never its siblings'."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.graph) { stack in
            let polygon = try stack.insert("Polygon", ["serial": 1])
            let square = try stack.insert("Square", ["serial": 2])
            let circle = try stack.insert("Circle", ["serial": 3])
            try stack.save()
            var own = BatchDeleteRequest(entityName: "Polygon")
            own.includesSubentities = false
            try expectEqual(
                try stack.coordinator.executeListing(own).changes.deletedObjectIDs, [polygon.objectID],
                "the own deletion")
            try expectEqual(
                try stack.coordinator.executeListing(BatchDeleteRequest(entityName: "Polygon")).changes
                    .deletedObjectIDs,
                [square.objectID], "the deletion with sub-entities")
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            try expectEqual(try reader.objects("Shape").map(\.objectID), [circle.objectID], "the Shapes left")
        }
    }

    static let deleteRefusedByRequiredInverse = category.check(
        "deleteRefusedByRequiredInverse",
        "A batch deletion that would leave an object's to-many relationship below its minimum count fails with "
            + "tooFewObjects for that object and deletes nothing."
    ) { harness in
        try RelationshipChecks.withFleet(in: harness) { stack in
            let fleet = try stack.insert("Fleet", ["name": "North"])
            let ships = try ["S1", "S2"].map { try stack.insert("Ship", ["name": .string($0)]) }
            try stack.run { try fleet.setObjects(ships, forKey: "ships") }
            try stack.save()
            try RelationshipChecks.expectValidationError(.tooFewObjects, of: fleet.objectID, key: "ships") {
                _ = try stack.coordinator.execute(
                    BatchDeleteRequest(entityName: "Ship", predicate: try FetchPredicate(format: "name == 'S1'")))
            }
            try expect(try stack.store.snapshot(for: ships[0].objectID) != nil, "The Ship was deleted.")
        }
    }

    static let unlistedResultsLeaveNoStaleSnapshots = category.check(
        "unlistedResultsLeaveNoStaleSnapshots",
        "Batch requests whose result type is not objectIDs count what they did, list no changes (as Core Data "
            + "gives IDs only then), and leave no context reading an object as it was before them."
    ) { harness in
        try harness.withStore(configuration: ConformanceModel.records) { stack in
            let ids = try stack.saveSamples(1...4)
            let before = CheckStack(coordinator: stack.coordinator, store: stack.store)
            try before.run {
                for id in ids { _ = try before.context.existingObject(with: id).value(forKey: "string") }
            }
            var update = BatchUpdateRequest(
                entityName: ConformanceModel.sample, propertiesToUpdate: ["string": .constant("updated")])
            update.resultType = .count
            let updated = try stack.coordinator.execute(update)
            try expectEqual(updated.count, 4, "the count of updated objects")
            try expect(updated.changes.updatedObjectIDs.isEmpty, "A count result listed its changes.")
            let after = CheckStack(coordinator: stack.coordinator, store: stack.store)
            try after.run {
                try expectEqual(
                    try after.context.existingObject(with: ids[0]).value(forKey: "string"), .string("updated"),
                    "the string a new context reads after the update")
            }
            var delete = BatchDeleteRequest(entityName: ConformanceModel.sample)
            delete.resultType = .count
            let deleted = try stack.coordinator.execute(delete)
            try expectEqual(deleted.count, 4, "the count of deleted objects")
            try expect(deleted.changes.deletedObjectIDs.isEmpty, "A count result listed its changes.")
            let last = CheckStack(coordinator: stack.coordinator, store: stack.store)
            try expectError(
                "objectNotFound for a deleted object",
                { _ = try last.run { try last.context.existingObject(with: ids[1]) } }
            ) { error in
                (error as? ContextError)?.code == .objectNotFound
            }
            try expectEqual(try last.objects(ConformanceModel.sample).count, 0, "the number of Samples left")
        }
    }
}

extension PersistentStoreCoordinator {
    /// Runs `request` with the result type ``BatchResultType/objectIDs``, so that the result
    /// lists its changes.
    func executeListing(_ request: BatchDeleteRequest) throws -> BatchResult {
        var request = request
        request.resultType = .objectIDs
        return try execute(request)
    }

    /// Runs `request` with the result type ``BatchResultType/objectIDs``, so that the result
    /// lists its changes.
    func executeListing(_ request: BatchUpdateRequest) throws -> BatchResult {
        var request = request
        request.resultType = .objectIDs
        return try execute(request)
    }
}
