import Foundation
import Strata

/// I: a save is all or nothing: one bad change (a value of the wrong type, a stale version, a
/// deletion of an object the store lacks), first, in the middle or last, and nothing is
/// written; conflicts list every object; validation errors name object and key; metadata-only saves;
/// two-phase saves commit only once decided.
enum SaveChecks {
    static var all: [ConformanceCheck] {
        Injection.allCases.flatMap { injection in Position.allCases.map { injected(injection, at: $0) } } + [
            mixedSaveAppliesEverything, valuesBySlotSaveAsByName, conflictListsEveryObject, failedSaveKeepsUserKeys,
            metadataOnlySave, validationNamesObjectAndKey, decidedSaveCommits, refusedDecisionWritesNothing,
            conflictNeverReachesTheDecision,
        ]
    }

    static let category = ConformanceCategory.saves

    /// The bad change a change set carries.
    enum Injection: String, CaseIterable {
        /// A change giving `int16` a string: the store must refuse with invalidChange.
        case invalidValue
        /// An update or deletion expecting version 1 of an object stored at version 2: a conflict.
        case staleVersion
        /// A deletion of an object the store no longer has: a conflict.
        case missingDeletion
    }

    /// Where in the change set the bad change sits.
    enum Position: String, CaseIterable {
        case first, middle, last
    }

    private static func injected(_ injection: Injection, at position: Position) -> ConformanceCheck {
        let what: String
        switch injection {
        case .invalidValue: what = "A value of the wrong type, placed \(position.rawValue) among"
        case .staleVersion: what = "A stale expected version, placed \(position.rawValue) among"
        case .missingDeletion: what = "A deletion of an object the store lacks, placed \(position.rawValue) among"
        }
        let outcome = injection == .invalidValue ? "invalidChange" : "a conflict naming it"
        return category.check(
            "\(injection.rawValue).\(position.rawValue)",
            "\(what) valid inserts, updates and deletions, fails the save with \(outcome) and nothing is written."
        ) { harness in
            let description = "the save with \(injection.rawValue) placed \(position.rawValue)"
            let (fixture, inserted) = try harness.withStore { stack in
                let fixture = try Fixture(stack)
                var changes = try fixture.validChanges(stack)
                switch injection {
                case .invalidValue:
                    let bad = try fixture.badValueChange(stack, inserting: position == .first)
                    switch position {
                    case .first: changes.inserted.insert(bad, at: 0)
                    case .middle: changes.updated.insert(bad, at: changes.updated.count / 2)
                    case .last: changes.updated.append(bad)
                    }
                    try ErrorChecks.expectStoreError(.invalidChange, naming: "int16") {
                        try stack.save(changes)
                    }
                case .staleVersion:
                    let stale = try fixture.twice[0]
                    switch position {
                    case .first: changes.updated.insert(fixture.update(stale, expecting: 1), at: 0)
                    case .middle:
                        changes.updated.insert(fixture.update(stale, expecting: 1), at: changes.updated.count / 2)
                    case .last: changes.deleted.append(.init(objectID: stale.objectID, expectedVersion: 1))
                    }
                    try expectConflicts(
                        [.init(objectID: stale.objectID, expectedVersion: 1, storedVersion: 2)], of: description
                    ) { try stack.save(changes) }
                case .missingDeletion:
                    let gone = StoreChangeSet.Deletion(objectID: fixture.gone[0], expectedVersion: 1)
                    switch position {
                    case .first: changes.deleted.insert(gone, at: 0)
                    case .middle: changes.deleted.insert(gone, at: changes.deleted.count / 2)
                    case .last: changes.deleted.append(gone)
                    }
                    try expectConflicts(
                        [.init(objectID: gone.objectID, expectedVersion: 1, storedVersion: nil)], of: description
                    ) { try stack.save(changes) }
                }
                try fixture.expectUnchanged(stack, after: description, inserted: changes.inserted.map(\.objectID))
                return (fixture, changes.inserted.map(\.objectID))
            }
            try harness.withStore { stack in
                try fixture.expectUnchanged(stack, after: "\(description), after reopening", inserted: inserted)
            }
        }
    }

    static let mixedSaveAppliesEverything = category.check(
        "mixedSaveAppliesEverything",
        "A valid save of inserts, updates and deletions applies each of them, and nothing else, after reopening."
    ) { harness in
        let (fixture, changes) = try harness.withStore { stack in
            let fixture = try Fixture(stack)
            let changes = try fixture.validChanges(stack)
            try stack.save(changes)
            return (fixture, changes)
        }
        try harness.withStore { stack in
            var expected = Dictionary(uniqueKeysWithValues: fixture.before.map { ($0.objectID, $0) })
            for change in changes.inserted {
                expected[change.objectID] = Snapshot(objectID: change.objectID, values: change.values, version: 1)
            }
            for change in changes.updated {
                expected[change.objectID] = Snapshot(
                    objectID: change.objectID, values: change.values, version: change.expectedVersion + 1)
            }
            for deletion in changes.deleted { expected[deletion.objectID] = nil }
            let stored = try stack.storedSamples()
            try expectEqual(stored.count, expected.count, "The number of Samples after the save, after reopening")
            for snapshot in stored {
                let wanted = try require(
                    expected[snapshot.objectID],
                    "Sample \(snapshot.objectID) is there after reopening but should not be.")
                try expect(
                    snapshot == wanted,
                    "After reopening, Sample \(snapshot.objectID) is \(snapshot), expected \(wanted).")
            }
        }
    }

    static let valuesBySlotSaveAsByName = category.check(
        "valuesBySlotSaveAsByName",
        "An insert and an update whose values are held by the entity's slots, as a context sends them, save the "
            + "same values as by name, after reopening."
    ) { harness in
        let expected = try harness.withStore { stack in
            let fixture = try Fixture(stack)
            let entity = try require(
                harness.model.schema.entitiesByName[ConformanceModel.sample], "The model has no Sample entity.")
            func bySlot(_ values: PropertyValues) -> PropertyValues {
                PropertyValues(
                    entity: entity,
                    slots: entity.slotNames.prefix(entity.persistentSlotCount).map { values[$0] ?? .null })
            }
            var inserted = try fixture.sample(1).values
            inserted["serial"] = .integer64(201)
            inserted["string"] = "inserted by slot"
            let id = try stack.store.permanentIDs(forEntities: [ConformanceModel.sample])[0]
            let two = try fixture.sample(2)
            var updated = two.values
            updated["string"] = "updated by slot"
            try stack.save(
                StoreChangeSet(
                    inserted: [.init(objectID: id, values: bySlot(inserted), expectedVersion: 0)],
                    updated: [.init(objectID: two.objectID, values: bySlot(updated), expectedVersion: two.version)]))
            return [
                Snapshot(objectID: id, values: inserted, version: 1),
                Snapshot(objectID: two.objectID, values: updated, version: two.version + 1),
            ]
        }
        try harness.withStore { stack in
            for wanted in expected {
                let stored = try stack.store.snapshot(for: wanted.objectID)
                try expect(
                    stored == wanted,
                    "After reopening, Sample \(wanted.objectID) is \(stored.map { "\($0)" } ?? "missing"), expected \(wanted)."
                )
            }
        }
    }

    static let conflictListsEveryObject = category.check(
        "conflictListsEveryObject",
        "A conflicting save lists every stale, vanished and too-new object with both versions, and writes nothing."
    ) { harness in
        let (fixture, inserted) = try harness.withStore { stack in
            let fixture = try Fixture(stack)
            var changes = try fixture.validChanges(stack)
            let (first, second) = (try fixture.twice[0], try fixture.twice[1])
            let fresh = try fixture.sample(1)
            changes.updated.remove(at: 0)
            changes.updated += [
                fixture.update(first, expecting: 1), fixture.update(fresh, expecting: 5),
                fixture.update(
                    Snapshot(objectID: fixture.gone[0], values: first.values, version: 1), expecting: 1),
            ]
            changes.deleted += [
                .init(objectID: second.objectID, expectedVersion: 1),
                .init(objectID: fixture.gone[1], expectedVersion: 1),
            ]
            try expectConflicts(
                [
                    .init(objectID: first.objectID, expectedVersion: 1, storedVersion: 2),
                    .init(objectID: fresh.objectID, expectedVersion: 5, storedVersion: 1),
                    .init(objectID: fixture.gone[0], expectedVersion: 1, storedVersion: nil),
                    .init(objectID: second.objectID, expectedVersion: 1, storedVersion: 2),
                    .init(objectID: fixture.gone[1], expectedVersion: 1, storedVersion: nil),
                ], of: "the save with five conflicting objects"
            ) { try stack.save(changes) }
            try fixture.expectUnchanged(
                stack, after: "the save with five conflicts", inserted: changes.inserted.map(\.objectID))
            return (fixture, changes.inserted.map(\.objectID))
        }
        try harness.withStore { stack in
            try fixture.expectUnchanged(
                stack, after: "the save with five conflicts, after reopening", inserted: inserted)
        }
    }

    static let failedSaveKeepsUserKeys = category.check(
        "failedSaveKeepsUserKeys", "New user keys in a save that conflicts are not written, also after reopening."
    ) { harness in
        let kept: [String: AttributeValue] = ["owner": "Ada", "revision": .integer64(1)]
        try harness.withStore { stack in
            let fixture = try Fixture(stack)
            try stack.save(StoreChangeSet(userInfo: kept))
            var changes = try fixture.validChanges(stack)
            changes.userInfo = ["owner": "Bo", "revision": .integer64(2), "added": true]
            changes.updated.append(fixture.update(try fixture.twice[0], expecting: 1))
            try expectError("a StoreError with code conflict", { try stack.save(changes) }) { error in
                (error as? StoreError)?.code == .conflict
            }
            try expectEqual(stack.store.metadata.userInfo, kept, "The user keys after a conflicting save")
        }
        try harness.withStore { stack in
            try expectEqual(
                stack.store.metadata.userInfo, kept, "The user keys after a conflicting save, after reopening")
        }
    }

    static let metadataOnlySave = category.check(
        "metadataOnlySave",
        "A change set of user keys alone replaces them and leaves every object and version as it was."
    ) { harness in
        let keys: [String: AttributeValue] = ["owner": "Ada", "ratio": .double(0.5)]
        let fixture = try harness.withStore { stack in
            let fixture = try Fixture(stack)
            try stack.save(StoreChangeSet(userInfo: ["owner": "Bo", "old": true]))
            try stack.save(StoreChangeSet(userInfo: keys))
            return fixture
        }
        try harness.withStore { stack in
            try expectEqual(stack.store.metadata.userInfo, keys, "The user keys after a metadata-only save, reopened")
            try fixture.expectUnchanged(stack, after: "two metadata-only saves, after reopening", inserted: [])
        }
    }

    static let validationNamesObjectAndKey = category.check(
        "validationNamesObjectAndKey",
        "A context save failing validation names the object and key, and writes none of its changes."
    ) { harness in
        try harness.withStore { stack in
            let saved = try stack.saveSamples(1...3)
            let object = try stack.run { try stack.context.existingObject(with: saved[0]) }
            try stack.run { try object.setValue("changed", forKey: "string") }
            try stack.insert(ConformanceModel.sample, ["serial": 4])
            let invalid = try stack.insert(ConformanceModel.sample, ["string": "no serial"])
            let id = invalid.objectID
            try expectError(
                "a ContextError with code validation naming \(id) and key serial", stack.save,
                matches: { error in
                    guard let error = error as? ContextError, error.code == .validation else { return false }
                    return error.validationErrors.contains { $0.objectID == id && $0.key == "serial" }
                        && error.message.contains("serial")
                })
        }
        try harness.withStore { stack in
            let stored = try stack.storedSamples()
            try expectEqual(stored.map(\.serial), [1, 2, 3], "Serials stored after the save that failed validation")
            try expectEqual(
                stored.map { $0.values["string"] ?? .null }, ["s1", "s2", "s3"],
                "Strings stored after the save that failed validation")
        }
    }

    /// Runs `body`, which must throw a `StoreError` with code conflict listing exactly `expected`, in any order.
    static func expectConflicts(
        _ expected: [StoreError.Conflict], of description: String, _ body: () throws -> Void
    ) throws {
        do {
            try body()
        } catch let error as StoreError where error.code == .conflict {
            try expect(
                Set(error.conflicts) == Set(expected) && error.conflicts.count == expected.count,
                "The conflict of \(description) lists \(list(error.conflicts)); expected \(list(expected)).")
            return
        } catch {
            throw CheckFailure("Expected a StoreError with code conflict from \(description), got \(error).")
        }
        throw CheckFailure("Expected a StoreError with code conflict from \(description), but it was saved.")
    }

    private static func list(_ conflicts: [StoreError.Conflict]) -> String {
        let items = conflicts.map {
            "\($0.objectID) (expected \($0.expectedVersion), stored \($0.storedVersion.map(String.init) ?? "none"))"
        }
        return items.isEmpty ? "no object" : items.joined(separator: ", ")
    }

    /// Saved Samples to change: serials 1 … 8 at version 1, 9 and 10 at version 2 (`twice`),
    /// 11 and 12 deleted (`gone`), and their stored state before the save under test.
    struct Fixture {
        let before: [Snapshot]
        let gone: [ObjectID]

        init(_ stack: CheckStack) throws {
            let ids = try stack.saveSamples(1...12)
            try stack.run {
                for id in ids[8...9] { try stack.context.existingObject(with: id).setValue("twice", forKey: "string") }
                for id in ids[10...11] { try stack.context.delete(try stack.context.existingObject(with: id)) }
                try stack.context.save()
            }
            before = try stack.storedSamples()
            gone = Array(ids[10...11])
            try expectEqual(before.map(\.version), [1, 1, 1, 1, 1, 1, 1, 1, 2, 2], "Versions of Samples 1 … 10")
        }

        /// The stored Sample with `serial`.
        func sample(_ serial: Int) throws -> Snapshot {
            try require(
                before.first { $0.serial == .integer64(Int64(serial)) }, "Sample \(serial) was not saved.")
        }

        /// Samples 9 and 10, saved twice.
        var twice: [Snapshot] {
            get throws { [try sample(9), try sample(10)] }
        }

        /// An update of `snapshot` setting `string` to "updated", expecting `version`.
        func update(_ snapshot: Snapshot, expecting version: Int64) -> StoreChangeSet.ObjectChange {
            var values = snapshot.values
            values["string"] = "updated"
            return .init(objectID: snapshot.objectID, values: values, expectedVersion: version)
        }

        /// Four inserts (serials 101 … 104), updates of Samples 1 … 5, deletions of 6 … 8.
        func validChanges(_ stack: CheckStack) throws -> StoreChangeSet {
            let template = try sample(1).values
            let ids = try stack.store.permanentIDs(forEntities: Array(repeating: ConformanceModel.sample, count: 4))
            let inserted = ids.enumerated().map { index, id in
                var values = template
                values["serial"] = .integer64(Int64(101 + index))
                values["string"] = .string("new \(index)")
                return StoreChangeSet.ObjectChange(objectID: id, values: values, expectedVersion: 0)
            }
            return StoreChangeSet(
                inserted: inserted, updated: try (1...5).map { update(try sample($0), expecting: 1) },
                deleted: try (6...8).map { .init(objectID: try sample($0).objectID, expectedVersion: 1) })
        }

        /// A change giving `int16` a string: an insert of a new object, or an update of Sample 9.
        func badValueChange(_ stack: CheckStack, inserting: Bool) throws -> StoreChangeSet.ObjectChange {
            let nine = try sample(9)
            var change = update(nine, expecting: nine.version)
            if inserting {
                change.objectID = try stack.store.permanentIDs(forEntities: [ConformanceModel.sample])[0]
                change.expectedVersion = 0
            }
            change.values["int16"] = "sixteen"
            return change
        }

        /// Fails unless the store holds exactly the Samples of ``before`` and none of `inserted`.
        func expectUnchanged(_ stack: CheckStack, after description: String, inserted: [ObjectID]) throws {
            let stored = try stack.storedSamples()
            let byID = Dictionary(stored.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
            for snapshot in before {
                let now = try require(
                    byID[snapshot.objectID],
                    "After \(description), Sample \(snapshot.serial) (\(snapshot.objectID)) is gone.")
                try expect(
                    now == snapshot,
                    "After \(description), Sample \(snapshot.serial) (\(snapshot.objectID)) changed from \(snapshot) "
                        + "to \(now).")
            }
            for id in inserted {
                try expect(
                    try stack.store.snapshot(for: id) == nil, "After \(description), the insert of \(id) was written.")
            }
            try expectEqual(stored.count, before.count, "The number of Samples after \(description)")
        }
    }
}
