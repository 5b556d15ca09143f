import Foundation
import Strata

/// H: limits, offsets, pagination, result types, batches, and faults whose record vanished.
enum FetchShapeChecks {
    static var all: [ConformanceCheck] {
        [
            limitZeroIsNoLimit, contextLimitZeroIsNoLimit, offsetPastTheEnd, contextOffsetPastTheEnd, limitPastTheEnd,
            paginationEachRowOnce, paginationWithTiesEachRowOnce, contextPaginationEachRowOnce, idsMatchSnapshots,
            countMatchesIDs, fetchedSnapshotsAreStoredOnes, contextIDsMatchObjects, contextDictionariesMatchObjects,
            contextCountMatchesObjects, batchedFetchMatchesUnbatched, pendingChangesInPage,
            faultOfDeletedRecordIsDeleted,
            faultOfDeletedRecordThrows, batchWithDeletedRecord,
        ] + DictionaryFetchChecks.all
    }

    private static let category = ConformanceCategory.fetchShapes

    static let limitZeroIsNoLimit = category.check(
        "limitZeroIsNoLimit", "A store fetch with limit 0 returns every match, in each result type, as in Core Data."
    ) { harness in
        try harness.withStore { stack in
            try stack.saveSamples(1...12)
            let request = StoreFetchRequest(
                entityName: ConformanceModel.sample, sortDescriptors: [FetchSortDescriptor("serial")], fetchLimit: 0)
            try expectEqual(
                try stack.store.fetchedIDs(request).count, 12, "Object IDs of 12 Samples fetched with limit 0")
            try expectEqual(
                try stack.store.fetchedSnapshots(request).map(\.serial), serials(1...12),
                "Serials of 12 Samples fetched with limit 0")
            try expectEqual(try stack.store.fetchedCount(request), 12, "The count of 12 Samples with limit 0")
        }
    }

    static let contextLimitZeroIsNoLimit = category.check(
        "contextLimitZeroIsNoLimit", "A context fetch and count with limit 0 return every match."
    ) { harness in
        try saveSamples(1...12, in: harness)
        try harness.withStore { stack in
            var request = try stack.request(ConformanceModel.sample, sortedBy: [FetchSortDescriptor("serial")])
            request.fetchLimit = 0
            try expectEqual(
                try stack.fetch(request).map { try stack.value($0, "serial") }, serials(1...12),
                "Serials of 12 Samples fetched through a context with limit 0")
            try expectEqual(
                try stack.run { try stack.context.count(for: request) }, 12, "The context's count with limit 0")
        }
    }

    static let offsetPastTheEnd = category.check(
        "offsetPastTheEnd", "A store fetch whose offset is at or past the last match returns nothing, count 0."
    ) { harness in
        try harness.withStore { stack in
            try stack.saveSamples(1...12)
            for (offset, limit) in [(12, nil), (13, nil), (50, 5), (Int(Int32.max), 1)] as [(Int, Int?)] {
                let request = StoreFetchRequest(
                    entityName: ConformanceModel.sample, sortDescriptors: [FetchSortDescriptor("serial")],
                    fetchOffset: offset, fetchLimit: limit)
                let shape = "12 Samples at offset \(offset), limit \(limit.map(String.init) ?? "none")"
                try expectEqual(try stack.store.fetchedIDs(request), [], "Object IDs of \(shape)")
                try expectEqual(try stack.store.fetchedSnapshots(request).map(\.serial), [], "Serials of \(shape)")
                try expectEqual(try stack.store.fetchedCount(request), 0, "The count of \(shape)")
            }
        }
    }

    static let contextOffsetPastTheEnd = category.check(
        "contextOffsetPastTheEnd", "Context fetches of every result type with an offset past the end return nothing."
    ) { harness in
        try saveSamples(1...12, in: harness)
        try harness.withStore { stack in
            var request = try stack.request(ConformanceModel.sample, sortedBy: [FetchSortDescriptor("serial")])
            request.fetchOffset = 20
            try expectEqual(try stack.fetch(request).count, 0, "Objects of 12 Samples at offset 20")
            try stack.run {
                try expectEqual(try stack.context.fetchObjectIDs(request), [], "Object IDs of 12 Samples at offset 20")
                try expectEqual(
                    try stack.context.fetchDictionaries(request), [], "Dictionaries of 12 Samples at offset 20")
                try expectEqual(try stack.context.count(for: request), 0, "The count of 12 Samples at offset 20")
            }
        }
    }

    static let limitPastTheEnd = category.check(
        "limitPastTheEnd", "A store fetch whose limit runs past the last match returns the rest, count included."
    ) { harness in
        try harness.withStore { stack in
            try stack.saveSamples(1...12)
            let request = StoreFetchRequest(
                entityName: ConformanceModel.sample, sortDescriptors: [FetchSortDescriptor("serial")], fetchOffset: 9,
                fetchLimit: 10)
            try expectEqual(
                try stack.store.fetchedSnapshots(request).map(\.serial), serials(10...12),
                "Serials of 12 Samples at offset 9, limit 10")
            try expectEqual(try stack.store.fetchedCount(request), 3, "The count of 12 Samples at offset 9, limit 10")
        }
    }

    static let paginationEachRowOnce = category.check(
        "paginationEachRowOnce", "Pages of 7 fetched from the store by offset return each of 30 objects once, in order."
    ) { harness in
        try harness.withStore { stack in
            try stack.saveSamples(1...30)
            let pages = try stride(from: 0, through: 35, by: 7).map { offset in
                try stack.store.fetchedSnapshots(
                    StoreFetchRequest(
                        entityName: ConformanceModel.sample, sortDescriptors: [FetchSortDescriptor("serial")],
                        fetchOffset: offset, fetchLimit: 7)
                ).map(\.serial)
            }
            try expectEqual(
                pages.map(\.count), [7, 7, 7, 7, 2, 0], "The sizes of the pages of 30 Samples at offsets 0, 7 … 35")
            try expectEqual(pages.flatMap { $0 }, serials(1...30), "Serials of the pages of 30 Samples, joined")
        }
    }

    static let paginationWithTiesEachRowOnce = category.check(
        "paginationWithTiesEachRowOnce",
        "Pages sorted by a key with ties, then by a unique key, return each object once, in the sorted order."
    ) { harness in
        try harness.withStore { stack in
            try stack.saveSamples(1...20)
            let sort = [FetchSortDescriptor("int16"), FetchSortDescriptor("serial", ascending: false)]
            let pages = try stride(from: 0, to: 20, by: 4).map { offset in
                try stack.store.fetchedSnapshots(
                    StoreFetchRequest(
                        entityName: ConformanceModel.sample, sortDescriptors: sort, fetchOffset: offset, fetchLimit: 4)
                ).map(\.serial)
            }
            let expected = [0, 1, 2].flatMap { group in (1...20).reversed().filter { $0 % 3 == group } }
                .map { AttributeValue.integer64(Int64($0)) }
            try expectEqual(
                pages.flatMap { $0 }, expected, "Serials of pages of 4 sorted by int16, then serial descending")
        }
    }

    static let contextPaginationEachRowOnce = category.check(
        "contextPaginationEachRowOnce", "Pages of 6 fetched through a context return each of 20 objects once, in order."
    ) { harness in
        try saveSamples(1...20, in: harness)
        try harness.withStore { stack in
            var joined: [AttributeValue] = []
            for offset in stride(from: 0, to: 24, by: 6) {
                var request = try stack.request(
                    ConformanceModel.sample, sortedBy: [FetchSortDescriptor("serial", ascending: false)])
                request.fetchOffset = offset
                request.fetchLimit = 6
                joined += try stack.fetch(request).map { try stack.value($0, "serial") }
            }
            try expectEqual(
                joined, serials(1...20).reversed(), "Serials of context pages of 6, sorted descending, joined")
        }
    }

    static let idsMatchSnapshots = category.check(
        "idsMatchSnapshots", "A store fetch for object IDs returns the IDs of the snapshots the same fetch returns."
    ) { harness in
        try harness.withStore { stack in
            try fillShapes(stack)
            for (shape, request) in try requestShapes() {
                let ids = try stack.store.fetchedIDs(request)
                let snapshotIDs = try stack.store.fetchedSnapshots(request).map(\.objectID)
                if request.sortDescriptors.isEmpty {
                    try expectEqual(Set(ids), Set(snapshotIDs), "The object IDs of \(shape), as a set")
                    try expectEqual(ids.count, snapshotIDs.count, "The number of object IDs of \(shape)")
                } else {
                    try expectEqual(ids, snapshotIDs, "The object IDs of \(shape), in order")
                }
            }
        }
    }

    static let countMatchesIDs = category.check(
        "countMatchesIDs", "A store fetch for a count returns the number of IDs the same fetch returns."
    ) { harness in
        try harness.withStore { stack in
            try fillShapes(stack)
            for (shape, request) in try requestShapes() {
                try expectEqual(
                    try stack.store.fetchedCount(request), try stack.store.fetchedIDs(request).count,
                    "The count of \(shape)")
            }
        }
    }

    static let fetchedSnapshotsAreStoredOnes = category.check(
        "fetchedSnapshotsAreStoredOnes",
        "Each snapshot a fetch returns equals snapshot(for:) of its object: values and version."
    ) { harness in
        try harness.withStore { stack in
            let ids = try stack.saveSamples(1...6)
            let object = try stack.run { try stack.context.existingObject(with: ids[2]) }
            try stack.run { try object.setValue("changed", forKey: "string") }
            try stack.save()
            for snapshot in try stack.storedSamples() {
                let stored = try stack.store.snapshot(for: snapshot.objectID)
                try expect(
                    stored == snapshot,
                    "The fetched snapshot of \(snapshot.objectID) is \(snapshot), but snapshot(for:) gives "
                        + "\(stored.map { "\($0)" } ?? "nil").")
            }
        }
    }

    static let contextIDsMatchObjects = category.check(
        "contextIDsMatchObjects", "A context's fetchObjectIDs returns the IDs of the objects fetch returns, in order."
    ) { harness in
        try saveSamples(1...20, in: harness)
        try harness.withStore { stack in
            let request = try pagedRequest(stack)
            let objectIDs = try stack.fetch(request).map(\.objectID)
            try expectEqual(objectIDs.count, 4, "Objects fetched with int16 == 1, offset 1, limit 4")
            try expectEqual(
                try stack.run { try stack.context.fetchObjectIDs(request) }, objectIDs,
                "IDs fetched with int16 == 1, offset 1, limit 4")
        }
    }

    static let contextDictionariesMatchObjects = category.check(
        "contextDictionariesMatchObjects", "A context's fetchDictionaries returns the values of the fetched objects."
    ) { harness in
        try saveSamples(1...20, in: harness)
        try harness.withStore { stack in
            var request = try pagedRequest(stack)
            request.propertiesToFetch = ["serial", "string"]
            let rows = try stack.run { try stack.context.fetchDictionaries(request) }
            try expectEqual(
                rows, [4, 7, 10, 13].map { ["serial": .integer64(Int64($0)), "string": .string("s\($0)")] },
                "Dictionaries fetched with int16 == 1, offset 1, limit 4")
            let objects = try stack.fetch(request).map { object in
                ["serial": try stack.value(object, "serial"), "string": try stack.value(object, "string")]
            }
            try expectEqual(rows, objects, "Dictionaries against the values of the fetched objects")
        }
    }

    static let contextCountMatchesObjects = category.check(
        "contextCountMatchesObjects", "A context's count(for:) equals the number of objects fetch returns."
    ) { harness in
        try saveSamples(1...20, in: harness)
        try harness.withStore { stack in
            var request = try pagedRequest(stack)
            try expectEqual(
                try stack.run { try stack.context.count(for: request) }, 4,
                "The count with int16 == 1, offset 1, limit 4")
            request.fetchLimit = nil
            try expectEqual(
                try stack.run { try stack.context.count(for: request) }, try stack.fetch(request).count,
                "The count with int16 == 1, offset 1, against the objects fetched")
        }
    }

    static let batchedFetchMatchesUnbatched = category.check(
        "batchedFetchMatchesUnbatched", "A fetch with batch size 7 returns the objects and values of an unbatched one."
    ) { harness in
        try saveSamples(1...30, in: harness)
        try harness.withStore { stack in
            var request = try stack.request(
                ConformanceModel.sample, where: "int16 != 2", sortedBy: [FetchSortDescriptor("serial")])
            let plain = try stack.fetch(request).map { try stack.value($0, "string") }
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            request.fetchBatchSize = 7
            let batched = try reader.fetch(request).map { try reader.value($0, "string") }
            try expectEqual(batched.count, 20, "Samples with int16 != 2 fetched in batches of 7")
            try expectEqual(batched, plain, "Strings of Samples fetched in batches of 7, against an unbatched fetch")
        }
    }

    static let pendingChangesInPage = category.check(
        "pendingChangesInPage", "A limited fetch counts the context's unsaved insert and deletion unless told not to."
    ) { harness in
        try harness.withStore { stack in
            let ids = try stack.saveSamples(1...6)
            try stack.run { try stack.context.delete(try stack.context.existingObject(with: ids[0])) }
            try stack.insert(ConformanceModel.sample, ["serial": 0])
            var request = try stack.request(ConformanceModel.sample, sortedBy: [FetchSortDescriptor("serial")])
            request.fetchLimit = 3
            try expectEqual(
                try stack.fetch(request).map { try stack.value($0, "serial") }, [0, 2, 3],
                "Serials of the first 3 Samples, with serial 0 inserted and 1 deleted unsaved")
            request.includesPendingChanges = false
            try expectEqual(
                try stack.fetch(request).map { try stack.value($0, "serial") }, serials(1...3),
                "Serials of the first 3 saved Samples, ignoring the unsaved changes")
        }
    }

    static let faultOfDeletedRecordIsDeleted = category.check(
        "faultOfDeletedRecordIsDeleted",
        "A fault whose record another context deleted becomes a deleted object with no values when fired."
    ) { harness in
        try harness.withStore { stack in
            let ids = try stack.saveSamples(1...3)
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            let fault = reader.run { reader.context.object(with: ids[1]) }
            try deleteAndSave(ids[1], in: stack)
            let value = try reader.value(fault, "string")
            try expect(
                reader.run { fault.isDeleted } && value.isNull,
                "The fault of \(ids[1]), deleted by another context, fired with string \(value.exactDescription) "
                    + "and isDeleted \(reader.run { fault.isDeleted }).")
            try expectEqual(
                try reader.value(reader.run { reader.context.object(with: ids[2]) }, "string"), "s3",
                "Sample 3's string next to the deleted Sample")
        }
    }

    static let faultOfDeletedRecordThrows = category.check(
        "faultOfDeletedRecordThrows",
        "With shouldDeleteInaccessibleFaults off, firing a fault whose record was deleted throws inaccessibleFault."
    ) { harness in
        try harness.withStore { stack in
            let ids = try stack.saveSamples(1...3)
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            let fault = reader.run {
                reader.context.shouldDeleteInaccessibleFaults = false
                return reader.context.object(with: ids[1])
            }
            try deleteAndSave(ids[1], in: stack)
            try expectError(
                "a ContextError with code inaccessibleFault naming \(ids[1])",
                { _ = try reader.value(fault, "string") },
                matches: { error in
                    guard let error = error as? ContextError else { return false }
                    return error.code == .inaccessibleFault && error.message.contains(ids[1].uriString)
                })
        }
    }

    static let batchWithDeletedRecord = category.check(
        "batchWithDeletedRecord",
        "A batched fetch's object deleted by another context before its batch loads reads as deleted; others load."
    ) { harness in
        try harness.withStore { stack in
            let ids = try stack.saveSamples(1...10)
            let reader = CheckStack(coordinator: stack.coordinator, store: stack.store)
            var request = try reader.request(ConformanceModel.sample, sortedBy: [FetchSortDescriptor("serial")])
            request.fetchBatchSize = 4
            try reader.run {
                let results = try reader.context.fetch(request)
                try expectEqual(results.count, 10, "Samples fetched in batches of 4")
                try expectEqual(try results[0].value(forKey: "string"), "s1", "Sample 1's string")
                try deleteAndSave(ids[5], in: stack)
                for (index, object) in results.enumerated() {
                    let value = try object.value(forKey: "string")
                    if index == 5 {
                        try expect(
                            object.isDeleted && value.isNull,
                            "Sample 6 (\(ids[5])), deleted before its batch loaded, has string "
                                + "\(value.exactDescription) and isDeleted \(object.isDeleted).")
                    } else {
                        try expectEqual(value, .string("s\(index + 1)"), "Sample \(index + 1)'s string")
                    }
                }
            }
        }
    }

    /// Saves Samples with `serials` in the store, to be read back after reopening.
    private static func saveSamples(_ serials: ClosedRange<Int>, in harness: CheckHarness) throws {
        _ = try harness.withStore { stack in try stack.saveSamples(serials) }
    }

    /// `serials` as `integer64` values.
    private static func serials(_ serials: ClosedRange<Int>) -> [AttributeValue] {
        serials.map { .integer64(Int64($0)) }
    }

    /// Deletes the object `id` in `stack`'s context and saves.
    private static func deleteAndSave(_ id: ObjectID, in stack: CheckStack) throws {
        try stack.run {
            try stack.context.delete(try stack.context.existingObject(with: id))
            try stack.context.save()
        }
    }

    /// Samples with int16 == 1 (serials 1, 4, 7 …), sorted by serial, from offset 1, at most 4.
    private static func pagedRequest(_ stack: CheckStack) throws -> FetchRequest<ManagedObject> {
        var request = try stack.request(
            ConformanceModel.sample, where: "int16 == 1", sortedBy: [FetchSortDescriptor("serial")])
        request.fetchOffset = 1
        request.fetchLimit = 4
        return request
    }

    /// Saves 15 Samples and 9 Shapes of every concrete kind.
    private static func fillShapes(_ stack: CheckStack) throws {
        for (serial, entity) in ["Polygon", "Square", "Circle"].flatMap({ [$0, $0, $0] }).enumerated() {
            try stack.insert(entity, ["serial": .integer64(Int64(serial)), "area": .double(Double(serial % 4))])
        }
        try stack.saveSamples(1...15)
    }

    /// Named fetches of every shape: whole entities, filtered, sorted, paged, with and without sub-entities.
    private static func requestShapes() throws -> [(String, StoreFetchRequest)] {
        let sample = ConformanceModel.sample
        let bySerial = [FetchSortDescriptor("serial")]
        return [
            ("every Sample", StoreFetchRequest(entityName: sample)),
            (
                "Samples with int16 == 2",
                StoreFetchRequest(entityName: sample, predicate: try FetchPredicate(format: "int16 == 2"))
            ),
            (
                "Samples sorted by int16 descending, then serial",
                StoreFetchRequest(
                    entityName: sample,
                    sortDescriptors: [FetchSortDescriptor("int16", ascending: false), FetchSortDescriptor("serial")])
            ),
            (
                "Samples at offset 4, limit 6",
                StoreFetchRequest(entityName: sample, sortDescriptors: bySerial, fetchOffset: 4, fetchLimit: 6)
            ),
            (
                "Samples at offset 12, limit 6",
                StoreFetchRequest(entityName: sample, sortDescriptors: bySerial, fetchOffset: 12, fetchLimit: 6)
            ),
            ("every Shape", StoreFetchRequest(entityName: "Shape", sortDescriptors: bySerial)),
            ("Polygons without sub-entities", StoreFetchRequest(entityName: "Polygon", includesSubentities: false)),
            (
                "Shapes with area > 1 at offset 1, limit 3",
                StoreFetchRequest(
                    entityName: "Shape", predicate: try FetchPredicate(format: "area > 1"), sortDescriptors: bySerial,
                    fetchOffset: 1, fetchLimit: 3)
            ),
        ]
    }
}
