import Foundation
import Strata

/// J: versions start at 1 and grow by one per save; a change expecting another version, or an
/// object that is gone, conflicts; two coordinators editing one object conflict.
enum OptimisticLockingChecks {
    static var all: [ConformanceCheck] {
        [
            insertIsVersionOne, eachSaveAddsOne, unchangedUpdateAddsOne, toManyChangeAddsOne,
            untouchedObjectsKeepVersion, staleUpdateConflicts, newerExpectedVersionConflicts, staleDeleteConflicts,
            twoCoordinatorsConflict, twoOpeningsOfOneFileConflict, updateOfDeletedObjectConflicts,
            deleteOfDeletedObjectConflicts,
            deleteAfterUpdateConflicts,
        ]
    }

    private static let category = ConformanceCategory.optimisticLocking

    static let insertIsVersionOne = category.check(
        "insertIsVersionOne",
        "Objects inserted through a context or the store start at version 1, also after reopening."
    ) { harness in
        let ids: [ObjectID] = try harness.withStore { stack in
            let saved = try stack.saveSamples(1...2)
            let id = try stack.store.permanentIDs(forEntities: [ConformanceModel.sample])[0]
            try stack.save(
                StoreChangeSet(inserted: [.init(objectID: id, values: ["serial": 3], expectedVersion: 0)]))
            try expectVersions(saved + [id], [1, 1, 1], in: stack, "after inserting")
            return saved + [id]
        }
        try harness.withStore { stack in try expectVersions(ids, [1, 1, 1], in: stack, "after reopening") }
    }

    static let eachSaveAddsOne = category.check(
        "eachSaveAddsOne", "Each save that changes an object adds exactly one to its version, also after reopening."
    ) { harness in
        let id: ObjectID = try harness.withStore { stack in
            let id = try stack.saveSamples(1...1)[0]
            let object = try stack.run { try stack.context.existingObject(with: id) }
            for round in 1...3 {
                try stack.run { try object.setValue(.string("round \(round)"), forKey: "string") }
                try stack.save()
                try expectVersions([id], [Int64(round + 1)], in: stack, "after \(round) updates")
            }
            return id
        }
        try harness.withStore { stack in try expectVersions([id], [4], in: stack, "after 3 updates and reopening") }
    }

    static let unchangedUpdateAddsOne = category.check(
        "unchangedUpdateAddsOne", "A store update whose values equal the stored ones still adds one to the version."
    ) { harness in
        let id: ObjectID = try harness.withStore { stack in
            let id = try stack.saveSamples(1...1)[0]
            let stored = try require(try stack.store.snapshot(for: id), "The saved Sample \(id) has no snapshot.")
            try stack.save(
                StoreChangeSet(updated: [.init(objectID: id, values: stored.values, expectedVersion: 1)]))
            try expectVersions([id], [2], in: stack, "after an update with unchanged values")
            return id
        }
        try harness.withStore { stack in
            try expectVersions([id], [2], in: stack, "after an update with unchanged values and reopening")
        }
    }

    static let toManyChangeAddsOne = category.check(
        "toManyChangeAddsOne", "A save that only changes an object's to-many members adds one to its version."
    ) { harness in
        let team: ObjectID = try harness.withStore { stack in
            let team = try stack.insert("Team", ["serial": 1, "name": "Blue"])
            let person = try stack.insert("Person", ["serial": 1])
            try stack.save()
            try stack.run { try team.addObject(person, forKey: "members") }
            try stack.save()
            try expectVersions([team.objectID], [2], in: stack, "after adding a member to the Team")
            return team.objectID
        }
        try harness.withStore { stack in
            try expectVersions([team], [2], in: stack, "after adding a member to the Team and reopening")
        }
    }

    static let untouchedObjectsKeepVersion = category.check(
        "untouchedObjectsKeepVersion", "Objects a save does not change keep their version."
    ) { harness in
        let ids: [ObjectID] = try harness.withStore { stack in
            let ids = try stack.saveSamples(1...4)
            try stack.run {
                try stack.context.existingObject(with: ids[0]).setValue("changed", forKey: "string")
                try stack.context.delete(try stack.context.existingObject(with: ids[1]))
                try stack.context.insertNewObject(forEntityName: ConformanceModel.sample).setValue(5, forKey: "serial")
                try stack.context.save()
            }
            try expectVersions([ids[0], ids[2], ids[3]], [2, 1, 1], in: stack, "after changing Sample 1 alone")
            return ids
        }
        try harness.withStore { stack in
            try expectVersions(
                [ids[0], ids[2], ids[3]], [2, 1, 1], in: stack, "after changing Sample 1 alone and reopening")
        }
    }

    static let staleUpdateConflicts = category.check(
        "staleUpdateConflicts",
        "A store update expecting an older version conflicts, naming both versions, and changes nothing."
    ) { harness in
        try expectStoreConflict(in: harness, expecting: 1) { snapshot in
            var values = snapshot.values
            values["string"] = "stale"
            return StoreChangeSet(updated: [.init(objectID: snapshot.objectID, values: values, expectedVersion: 1)])
        }
    }

    static let newerExpectedVersionConflicts = category.check(
        "newerExpectedVersionConflicts", "A store update expecting a newer version than the stored one conflicts."
    ) { harness in
        try expectStoreConflict(in: harness, expecting: 3) { snapshot in
            var values = snapshot.values
            values["string"] = "ahead"
            return StoreChangeSet(updated: [.init(objectID: snapshot.objectID, values: values, expectedVersion: 3)])
        }
    }

    static let staleDeleteConflicts = category.check(
        "staleDeleteConflicts", "A store deletion expecting an older version conflicts and keeps the object."
    ) { harness in
        try expectStoreConflict(in: harness, expecting: 1) { snapshot in
            StoreChangeSet(deleted: [.init(objectID: snapshot.objectID, expectedVersion: 1)])
        }
    }

    static let twoCoordinatorsConflict = category.check(
        "twoCoordinatorsConflict",
        "When two coordinators save one object, the second save conflicts naming it and both versions, writing nothing."
    ) { harness in
        try expectSecondSaveConflict(
            in: harness, firstDeletes: false, storedVersion: 2,
            change: { object in try object.setValue("second", forKey: "string") }, changedKeys: ["string"])
    }

    static let twoOpeningsOfOneFileConflict = category.check(
        "twoOpeningsOfOneFileConflict",
        "When coordinators that each opened the store's file save one object, the second save conflicts.",
        requires: .capabilities(.multiProcessAccess)
    ) { harness in
        try expectSecondSaveConflict(
            in: harness, separateOpenings: true, firstDeletes: false, storedVersion: 2,
            change: { object in try object.setValue("second", forKey: "string") }, changedKeys: ["string"])
    }

    static let updateOfDeletedObjectConflicts = category.check(
        "updateOfDeletedObjectConflicts",
        "Updating an object another coordinator deleted conflicts with no stored version and writes nothing."
    ) { harness in
        try expectSecondSaveConflict(
            in: harness, firstDeletes: true, storedVersion: nil,
            change: { object in try object.setValue("second", forKey: "string") }, changedKeys: ["string"])
    }

    static let deleteOfDeletedObjectConflicts = category.check(
        "deleteOfDeletedObjectConflicts",
        "Deleting an object another coordinator deleted conflicts with no stored version and writes nothing."
    ) { harness in
        try expectSecondSaveConflict(
            in: harness, firstDeletes: true, storedVersion: nil,
            change: { object in try object.managedObjectContext?.delete(object) }, changedKeys: [])
    }

    static let deleteAfterUpdateConflicts = category.check(
        "deleteAfterUpdateConflicts",
        "Deleting an object another coordinator updated conflicts naming both versions and keeps the update."
    ) { harness in
        try expectSecondSaveConflict(
            in: harness, firstDeletes: false, storedVersion: 2,
            change: { object in try object.managedObjectContext?.delete(object) }, changedKeys: [])
    }

    /// Fails unless the store holds `ids` at `versions`.
    private static func expectVersions(
        _ ids: [ObjectID], _ versions: [Int64], in stack: CheckStack, _ moment: String
    ) throws {
        for (id, version) in zip(ids, versions) {
            let snapshot = try require(try stack.store.snapshot(for: id), "\(id) has no snapshot \(moment).")
            try expectEqual(snapshot.version, version, "The version of \(id) \(moment)")
        }
    }

    /// Saves a Sample twice (version 2), then saves the change set `make` builds from its
    /// snapshot, which must conflict listing the Sample expecting `expected` with stored version
    /// 2; the Sample must stay as it was, also after reopening.
    private static func expectStoreConflict(
        in harness: CheckHarness, expecting expected: Int64, _ make: (Snapshot) -> StoreChangeSet
    ) throws {
        let before: Snapshot = try harness.withStore { stack in
            let id = try stack.saveSamples(1...1)[0]
            try stack.run {
                try stack.context.existingObject(with: id).setValue("saved twice", forKey: "string")
                try stack.context.save()
            }
            let before = try require(try stack.store.snapshot(for: id), "The saved Sample \(id) has no snapshot.")
            try expectEqual(before.version, 2, "The version of \(id) after two saves")
            do {
                try stack.save(make(before))
                throw CheckFailure("A change to \(id) expecting version \(expected), stored 2, was saved.")
            } catch let error as StoreError where error.code == .conflict {
                let wanted = StoreError.Conflict(objectID: id, expectedVersion: expected, storedVersion: 2)
                try expectEqual(error.conflicts, [wanted], "The conflicts of a change expecting version \(expected)")
            }
            return before
        }
        try harness.withStore { stack in
            let after = try stack.store.snapshot(for: before.objectID)
            try expect(
                after == before,
                "After the conflicting save and reopening, \(before.objectID) is \(after.map { "\($0)" } ?? "gone"), "
                    + "expected \(before).")
        }
    }

    /// Two coordinators share one store (or, with `separateOpenings`, each open the store's file)
    /// holding Samples 1 … 3; each loads Samples 1 and 2. The
    /// first updates (or deletes) Sample 1 and saves; the second applies `change` to Sample 1,
    /// updates Sample 2, inserts a Person and saves, which must fail with a merge conflict naming
    /// Sample 1, cached version 1, `storedVersion` and `changedKeys`, and write nothing.
    private static func expectSecondSaveConflict(
        in harness: CheckHarness, separateOpenings: Bool = false, firstDeletes: Bool, storedVersion: Int64?,
        change: (ManagedObject) throws -> Void, changedKeys: [String]
    ) throws {
        let firstCoordinator = try harness.makeCoordinator()
        let store = try harness.openStore(in: firstCoordinator)
        let secondCoordinator = try harness.makeCoordinator()
        let secondStore: any IncrementalStore
        if separateOpenings {
            secondStore = try harness.openStore(in: secondCoordinator)
        } else {
            try secondCoordinator.add(store)
            secondStore = store
        }
        let first = CheckStack(coordinator: firstCoordinator, store: store)
        let second = CheckStack(coordinator: secondCoordinator, store: secondStore)
        let ids = try first.saveSamples(1...3)
        let (target, other) = try second.run {
            (try second.context.existingObject(with: ids[0]), try second.context.existingObject(with: ids[1]))
        }
        try first.run {
            let object = try first.context.existingObject(with: ids[0])
            if firstDeletes {
                try first.context.delete(object)
            } else {
                try object.setValue("first", forKey: "string")
            }
            try first.context.save()
        }
        let expected = ContextError.MergeConflict(
            objectID: ids[0], cachedVersion: 1, storedVersion: storedVersion, changedKeys: changedKeys)
        try second.run {
            try change(target)
            try other.setValue("second", forKey: "string")
            try second.context.insertNewObject(forEntityName: "Person").setValue(4, forKey: "serial")
        }
        do {
            try second.save()
            throw CheckFailure("The second coordinator's save of \(ids[0]), changed by the first, succeeded.")
        } catch let error as ContextError where error.code == .mergeConflict {
            try expectEqual(error.conflicts, [expected], "The conflicts of the second coordinator's save")
            try expect(
                error.message.contains(ids[0].uriString),
                "The conflict message does not name \(ids[0]): \(error.message)")
        }
        try firstCoordinator.remove(store)
        try secondCoordinator.remove(secondStore)
        let survivors: [(serial: AttributeValue, string: AttributeValue, version: Int64)] =
            (firstDeletes ? [] : [(1, "first", 2)]) + [(2, "s2", 1), (3, "s3", 1)]
        let expectedState = survivors.map { "\($0.serial)/\($0.string)/v\($0.version)" }
        try harness.withStore { stack in
            let stored = try stack.storedSamples().map {
                "\($0.serial)/\($0.values["string"] ?? .null)/v\($0.version)"
            }
            try expectEqual(stored, expectedState, "Serial/string/version of the Samples after the conflict, reopened")
            try expectEqual(
                try stack.store.fetchedCount(StoreFetchRequest(entityName: "Person")), 0,
                "People after the conflicting save that inserted one, reopened")
        }
    }
}
