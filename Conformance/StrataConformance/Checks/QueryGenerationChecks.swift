import Strata

/// Q: a store that declares query generations opens read views that keep answering as the
/// store did when they opened, whatever is saved since, and lets them go when it closes;
/// contexts pinned to a generation read through them, and move on as Core Data documents.
enum QueryGenerationChecks {
    static var all: [ConformanceCheck] {
        [
            viewAnswersAsTheStoreDidWhenOpened, closeReleasesViews, fetchUnchangedAfterOtherSave,
            faultOfDeletedObjectFires, toManyUnchangedAfterOtherSave, contextAdvancesAsDocumented,
            tokensEqualAndOrdered,
        ]
    }

    private static let category = ConformanceCategory.queryGenerations
    private static let requirement = ConformanceRequirement.capabilities(.queryGenerations)
    private static let bySerial = [FetchSortDescriptor("serial")]

    static let viewAnswersAsTheStoreDidWhenOpened = category.check(
        "viewAnswersAsTheStoreDidWhenOpened",
        "A read view answers fetches, counts, loads and to-many loads as the store did when it opened, after "
            + "another coordinator updates, deletes and inserts.",
        requires: requirement
    ) { harness in
        try withReaderAndWriter(harness) { reader, writer, ids in
            let manager = try savePeople(writer)
            let view = try require(
                try reader.store.openGeneration(), "The store declares queryGenerations, but openGeneration() gave nil."
            )
            let samples = StoreFetchRequest(entityName: ConformanceModel.sample, sortDescriptors: bySerial)
            let before = try reader.store.fetchedSnapshots(samples)
            let reports = Set(try reader.store.relatedObjectIDs(of: manager, relationship: "reports"))
            try changeEverything(writer, ids: ids, manager: manager)
            try expect(
                try reader.store.fetchedCount(samples) == 3 && (try reader.store.snapshot(for: ids[1])) == nil,
                "The store itself does not show the other coordinator's save; the check cannot tell views apart.")
            try expectEqual(try view.fetchedSnapshots(samples), before, "The view's Samples after the other save")
            try expectEqual(try view.fetchedCount(samples), before.count, "The view's count after the other save")
            try expectEqual(try view.snapshot(for: ids[1]), before[1], "The view's load of the deleted Sample")
            try expectEqual(
                Set(try view.snapshots(for: ids)), Set(before), "The view's batch load of the Samples")
            try expectEqual(
                Set(try view.relatedObjectIDs(of: manager, relationship: "reports")), reports,
                "The view's reports of the manager")
            try expectEqual(
                Set(try view.relatedObjectIDs(ofEach: [manager], relationship: "reports")[manager] ?? []), reports,
                "The view's batch load of the manager's reports")
        }
    }

    static let closeReleasesViews = category.check(
        "closeReleasesViews",
        "Removing the store from its coordinator releases its read views: reading one then fails with "
            + "generationUnavailable.",
        requires: requirement
    ) { harness in
        let coordinator = try harness.makeCoordinator()
        let store = try harness.openStore(in: coordinator)
        let stack = CheckStack(coordinator: coordinator, store: store)
        _ = try stack.saveSamples(1...2)
        let view = try require(
            try store.openGeneration(), "The store declares queryGenerations, but openGeneration() gave nil.")
        try coordinator.remove(store)
        try expectError(
            "StoreError.generationUnavailable from a view of a removed store",
            { _ = try view.fetchedCount(StoreFetchRequest(entityName: ConformanceModel.sample)) },
            matches: { ($0 as? StoreError)?.code == .generationUnavailable })
    }

    static let fetchUnchangedAfterOtherSave = category.check(
        "fetchUnchangedAfterOtherSave",
        "A pinned context's fetches, counts and predicates see the Samples as pinned after another coordinator's "
            + "save, while an unpinned context sees the save.",
        requires: requirement
    ) { harness in
        try withReaderAndWriter(harness) { reader, writer, ids in
            let manager = try savePeople(writer)
            let all = try reader.request(ConformanceModel.sample, sortedBy: bySerial)
            let named = try reader.request(ConformanceModel.sample, where: "string == 's1'")
            let pinnedIDs = try reader.run {
                try reader.context.setQueryGenerationFrom(.current)
                return try reader.context.fetchObjectIDs(all)
            }
            try changeEverything(writer, ids: ids, manager: manager)
            try reader.run {
                try expectEqual(try reader.context.fetchObjectIDs(all), pinnedIDs, "The pinned context's Samples")
                try expectEqual(try reader.context.count(for: all), 3, "The pinned context's count of Samples")
                try expectEqual(
                    try reader.context.fetchObjectIDs(named), [ids[0]], "The pinned context's Samples named 's1'")
            }
            let unpinned = CheckStack(coordinator: reader.coordinator, store: reader.store)
            try unpinned.run {
                try expectEqual(
                    try unpinned.context.fetchObjectIDs(named), [], "An unpinned context's Samples named 's1'")
                try expectEqual(
                    try unpinned.context.fetchObjectIDs(all).count, 3, "An unpinned context's count of Samples")
            }
        }
    }

    static let faultOfDeletedObjectFires = category.check(
        "faultOfDeletedObjectFires",
        "A pinned context fires the fault of an object another coordinator deleted after the pin, and gets its "
            + "pinned values.",
        requires: requirement
    ) { harness in
        try withReaderAndWriter(harness) { reader, writer, ids in
            try reader.run {
                try reader.context.setQueryGenerationFrom(.current)
                _ = try reader.context.count(for: try reader.request(ConformanceModel.sample))
            }
            try writer.run {
                try writer.context.delete(try writer.context.existingObject(with: ids[1]))
                try writer.context.save()
            }
            try reader.run {
                let fault = reader.context.object(with: ids[1])
                try expectEqual(try fault.value(forKey: "string"), "s2", "The deleted Sample's string, pinned")
                try expect(!fault.isDeleted, "The pinned context marks the Sample another coordinator deleted deleted.")
            }
        }
    }

    static let toManyUnchangedAfterOtherSave = category.check(
        "toManyUnchangedAfterOtherSave",
        "A pinned context loads a to-many relationship's members as pinned after another coordinator changes them.",
        requires: requirement
    ) { harness in
        try withReaderAndWriter(harness) { reader, writer, ids in
            let manager = try savePeople(writer)
            try reader.run {
                try reader.context.setQueryGenerationFrom(.current)
                _ = try reader.context.count(for: try reader.request("Person"))
            }
            try changeEverything(writer, ids: ids, manager: manager)
            try reader.run {
                let reports = try reader.context.object(with: manager).objects(forKey: "reports")
                let serials = try Set(reports.map { try $0.value(forKey: "serial") })
                try expectEqual(serials, [11, 12], "The serials of the manager's reports, pinned")
            }
        }
    }

    static let contextAdvancesAsDocumented = category.check(
        "contextAdvancesAsDocumented",
        "A pinned context moves to the newest generation on its own save, on merging a save, on reset, on "
            + "refreshing all objects and when a token is set, and not otherwise.",
        requires: requirement
    ) { harness in
        try withReaderAndWriter(harness) { reader, writer, _ in
            var serial = 100
            let advances: [(String, () throws -> Void)] = [
                (
                    "its own save",
                    {
                        try reader.context.insertNewObject(forEntityName: "Person").setValue(
                            .integer64(1), forKey: "serial")
                        try reader.context.save()
                    }
                ),
                (
                    "merging a save",
                    {
                        try reader.context.mergeChanges(fromContextDidSave: ContextNotification(kind: .didSave))
                    }
                ),
                ("reset", { reader.context.reset() }),
                ("refreshAllObjects", { try reader.context.refreshAllObjects() }),
                ("setting .current", { try reader.context.setQueryGenerationFrom(.current) }),
            ]
            let samples = try reader.request(ConformanceModel.sample)
            for (event, advance) in advances {
                let before = try reader.run {
                    try reader.context.setQueryGenerationFrom(.current)
                    return try reader.context.count(for: samples)
                }
                serial += 1
                _ = try writer.saveSamples(serial...serial)
                try reader.run {
                    try expectEqual(
                        try reader.context.count(for: samples), before, "The pinned count before \(event)")
                    try advance()
                    try expectEqual(
                        try reader.context.count(for: samples), before + 1, "The pinned count after \(event)")
                }
            }
        }
    }

    static let tokensEqualAndOrdered = category.check(
        "tokensEqualAndOrdered",
        "Contexts pinned to one token read one state and their tokens are equal; a later generation's token is "
            + "greater, and current is greater than both.",
        requires: requirement
    ) { harness in
        try withReaderAndWriter(harness) { reader, writer, _ in
            let samples = try reader.request(ConformanceModel.sample)
            let first = try reader.run {
                try reader.context.setQueryGenerationFrom(.current)
                _ = try reader.context.count(for: samples)
                return try require(reader.context.queryGenerationToken, "A pinned context has no token.")
            }
            _ = try writer.saveSamples(10...10)
            let follower = CheckStack(coordinator: reader.coordinator, store: reader.store)
            let (followerToken, followerCount) = try follower.run {
                try follower.context.setQueryGenerationFrom(first)
                return (follower.context.queryGenerationToken, try follower.context.count(for: samples))
            }
            try expectEqual(followerToken, first, "The token of a context pinned to another's token")
            try expectEqual(followerCount, 3, "The count of a context pinned to a token taken before a save")
            let later = try follower.run {
                try follower.context.refreshAllObjects()
                _ = try follower.context.count(for: samples)
                return try require(follower.context.queryGenerationToken, "An advanced context has no token.")
            }
            try expect(first < later, "The earlier token \(first) is not less than the later \(later).")
            try expect(later < .current, "The token \(later) is not less than current.")
            try expect(first != later, "Tokens of two generations are equal.")
        }
    }

    /// Two coordinators on one store — each with its own opening of the file when the store
    /// allows several — with Samples 1…3 saved; `body` reads with the first and writes with the
    /// second.
    private static func withReaderAndWriter(
        _ harness: CheckHarness, _ body: (_ reader: CheckStack, _ writer: CheckStack, _ ids: [ObjectID]) throws -> Void
    ) throws {
        let readerCoordinator = try harness.makeCoordinator()
        let store = try harness.openStore(in: readerCoordinator)
        let writerCoordinator = try harness.makeCoordinator()
        let writerStore: any IncrementalStore
        if store.capabilities.contains(.multiProcessAccess) {
            writerStore = try harness.openStore(in: writerCoordinator)
        } else {
            try writerCoordinator.add(store)
            writerStore = store
        }
        defer {
            try? readerCoordinator.remove(store)
            try? writerCoordinator.remove(writerStore)
        }
        let writer = CheckStack(coordinator: writerCoordinator, store: writerStore)
        let ids = try writer.saveSamples(1...3)
        try body(CheckStack(coordinator: readerCoordinator, store: store), writer, ids)
    }

    /// Saves a manager (serial 10) with reports 11 and 12; returns the manager's ID.
    private static func savePeople(_ writer: CheckStack) throws -> ObjectID {
        try writer.run {
            let people = try (10...12).map { serial in
                let person = try writer.context.insertNewObject(forEntityName: "Person")
                try person.setValue(.integer64(Int64(serial)), forKey: "serial")
                return person
            }
            try people[0].setObjects([people[1], people[2]], forKey: "reports")
            try writer.context.save()
            return people[0].objectID
        }
    }

    /// Renames Sample 1, deletes Sample 2, inserts Sample 4, and replaces report 11 of the
    /// manager with a new report 13, in one save.
    private static func changeEverything(_ writer: CheckStack, ids: [ObjectID], manager: ObjectID) throws {
        try writer.run {
            let context = writer.context
            try context.existingObject(with: ids[0]).setValue("renamed", forKey: "string")
            try context.delete(try context.existingObject(with: ids[1]))
            try context.insertNewObject(forEntityName: ConformanceModel.sample).setValue(
                .integer64(4), forKey: "serial")
            let boss = try context.existingObject(with: manager)
            let kept = try boss.objects(forKey: "reports").filter { try $0.value(forKey: "serial") == 12 }
            let newcomer = try context.insertNewObject(forEntityName: "Person")
            try newcomer.setValue(.integer64(13), forKey: "serial")
            try boss.setObjects(kept + [newcomer], forKey: "reports")
            try context.save()
        }
    }
}
