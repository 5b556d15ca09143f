import Foundation
import Strata
import Synchronization

/// K: readers running while a writer saves see whole saves, never part of one; writers in
/// separate contexts never lose an update or an insert silently.
enum ConcurrencyChecks {
    static var all: [ConformanceCheck] {
        [readersSeeWholeSaves, concurrentInsertsAllKept, concurrentUpdatesNeverLost, batchLoadsSeeOtherOpeningsSaves]
    }

    private static let category = ConformanceCategory.concurrency

    static let readersSeeWholeSaves = category.check(
        "readersSeeWholeSaves", "Counts read while a writer saves batches of 5 are multiples of 5 and never go back."
    ) { harness in
        let coordinator = try harness.makeCoordinator()
        let store = try harness.openStore(in: coordinator)
        defer { try? coordinator.remove(store) }
        let writerDone = Atomic(false)
        let problems = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            let stack = CheckStack(coordinator: coordinator, store: store)
            if worker == 0 {
                defer { writerDone.store(true, ordering: .releasing) }
                do {
                    for batch in 0..<10 {
                        for item in 0..<5 {
                            try stack.insert(ConformanceModel.sample, ["serial": .integer64(Int64(batch * 5 + item))])
                        }
                        try stack.save()
                    }
                } catch {
                    problems.withLock { $0.append("The writer failed: \(error).") }
                }
                return
            }
            var last = 0
            while true {
                let finished = writerDone.load(ordering: .acquiring)
                do {
                    let count = try stack.run {
                        try stack.context.count(for: try stack.request(ConformanceModel.sample))
                    }
                    if !count.isMultiple(of: 5) || count < last {
                        problems.withLock { $0.append("Reader \(worker) saw \(count) Samples after \(last).") }
                        return
                    }
                    last = count
                } catch {
                    problems.withLock { $0.append("Reader \(worker) failed: \(error).") }
                    return
                }
                if finished { break }
            }
            if last != 50 { problems.withLock { $0.append("Reader \(worker) ended with \(last) Samples, not 50.") } }
        }
        let found = problems.withLock { $0 }
        try expect(found.isEmpty, found.joined(separator: " "))
    }

    static let concurrentInsertsAllKept = category.check(
        "concurrentInsertsAllKept", "Four contexts inserting and saving at once keep every object."
    ) { harness in
        let coordinator = try harness.makeCoordinator()
        let store = try harness.openStore(in: coordinator)
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let stack = CheckStack(coordinator: coordinator, store: store)
            do {
                for round in 0..<5 {
                    for item in 0..<5 {
                        let serial = Int64(worker * 100 + round * 5 + item)
                        try stack.insert(ConformanceModel.sample, ["serial": .integer64(serial)])
                    }
                    try stack.save()
                }
            } catch {
                failures.withLock { $0.append("Writer \(worker) failed: \(error).") }
            }
        }
        try coordinator.remove(store)
        let found = failures.withLock { $0 }
        try expect(found.isEmpty, found.joined(separator: " "))
        let serials: Set<AttributeValue> = try harness.withStore { stack in
            Set(try stack.objects(ConformanceModel.sample).map { try stack.value($0, "serial") })
        }
        let expected = Set(
            (0..<4).flatMap { worker in (0..<25).map { AttributeValue.integer64(Int64(worker * 100 + $0)) } })
        try expect(
            serials == expected,
            "After four writers saved 25 Samples each, \(serials.count) distinct serials were read back; "
                + "missing: \(expected.subtracting(serials).count), unexpected: \(serials.subtracting(expected).count)."
        )
    }

    static let concurrentUpdatesNeverLost = category.check(
        "concurrentUpdatesNeverLost",
        "Four contexts incrementing one counter, retrying on merge conflicts, lose no increment."
    ) { harness in
        let coordinator = try harness.makeCoordinator()
        let store = try harness.openStore(in: coordinator)
        let setup = CheckStack(coordinator: coordinator, store: store)
        let counter = try setup.insert(ConformanceModel.sample, ["serial": 1, "int64": 0])
        try setup.save()
        let id = counter.objectID
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let stack = CheckStack(coordinator: coordinator, store: store)
            do {
                try stack.run {
                    let object = try stack.context.existingObject(with: id)
                    for _ in 0..<10 { try increment(object, in: stack.context) }
                }
            } catch {
                failures.withLock { $0.append("Writer \(worker) failed: \(error).") }
            }
        }
        try coordinator.remove(store)
        let found = failures.withLock { $0 }
        try expect(found.isEmpty, found.joined(separator: " "))
        try harness.withStore { stack in
            let object = try require(try stack.objects(ConformanceModel.sample).first, "The counter is missing.")
            try expectEqual(try stack.value(object, "int64"), 40, "The counter after 4 × 10 increments")
            let version = try stack.store.snapshot(for: object.objectID)?.version
            try expectEqual(version, 41, "The counter's version after 40 saved increments")
        }
    }

    static let batchLoadsSeeOtherOpeningsSaves = category.check(
        "batchLoadsSeeOtherOpeningsSaves",
        "A batch load after another opening of the file saved an update gives the new version and value, as "
            + "single loads do.",
        requires: .capabilities(.multiProcessAccess)
    ) { harness in
        let first = try harness.makeCoordinator()
        let store = try harness.openStore(in: first)
        defer { try? first.remove(store) }
        let setup = CheckStack(coordinator: first, store: store)
        let samples = try (1...3).map { try setup.insert(ConformanceModel.sample, ["serial": .integer64(Int64($0))]) }
        try setup.save()
        let ids = setup.run { samples.map(\.objectID) }
        let before = try store.snapshots(for: ids)
        try expectEqual(before.map(\.version), [1, 1, 1], "Versions read in a batch before the update")
        let second = try harness.makeCoordinator()
        let other = try harness.openStore(in: second)
        let writer = CheckStack(coordinator: second, store: other)
        let updated = try require(
            try writer.objects(ConformanceModel.sample, where: "serial == 2").first, "Sample 2 is missing.")
        try writer.run { try updated.setValue("changed", forKey: "string") }
        try writer.save()
        try second.remove(other)
        // `snapshots(for:)` answers in any order: read its answer in the order of `ids`.
        let loaded = Dictionary(try store.snapshots(for: ids).map { ($0.objectID, $0) }) { first, _ in first }
        let batch = try ids.map { try require(loaded[$0], "\($0) is missing from the batch load.") }
        let single = try ids.map { try require(try store.snapshot(for: $0), "\($0) is missing.") }
        try expectEqual(batch.map(\.version), single.map(\.version), "Batch-loaded versions against single loads")
        try expectEqual(batch.map(\.version), [1, 2, 1], "Batch-loaded versions after the other opening's update")
        try expectEqual(batch[1].values["string"], .string("changed"), "Sample 2's string, batch-loaded")
    }

    /// Adds one to `object`'s `int64` and saves, reloading and retrying while the save meets
    /// a newer version; a store that conflicts a thousand times in a row fails the check.
    private static func increment(_ object: ManagedObject, in context: ManagedObjectContext) throws {
        for _ in 0..<1000 {
            let current = try object.value(forKey: "int64").get(Int64.self) ?? 0
            try object.setValue(.integer64(current + 1), forKey: "int64")
            do {
                try context.save()
                return
            } catch let error as ContextError where error.code == .mergeConflict {
                try context.refresh(object, mergeChanges: false)
            }
        }
        throw CheckFailure("Saving an increment of \(object.objectID) met a conflict 1000 times in a row.")
    }
}
