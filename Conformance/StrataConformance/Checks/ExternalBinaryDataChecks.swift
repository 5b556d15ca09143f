import Foundation
import Strata

/// Z: large binary values of an attribute allowing external storage (`Sample.binary`) survive
/// reopening, updates, deletion, migration and a process killed while saving, and the store
/// leaves no copy of a value it no longer holds in any file beside it.
enum ExternalBinaryDataChecks {
    static var all: [ConformanceCheck] {
        [roundTrip, inlineLimit, updates, deletion, migration, killDuringSaves]
    }

    private static let category = ConformanceCategory.externalBinaryData
    private static let requirement = ConformanceRequirement.capabilities(.externalBinaryStorage)
    private static let key = ConformanceModel.attributeName(for: .binary)

    /// `count` bytes that differ with `seed`.
    private static func bytes(_ seed: Int, count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ seed &* 101 &+ $0 >> 8) })
    }

    private static let large = bytes(1, count: 300_000)
    private static let otherLarge = bytes(2, count: 300_000)
    private static let small = bytes(3, count: 1_000)

    /// Saves `Sample`s with serials 1, 2, 3… holding `values`.
    private static func saveSamples(_ values: [Data?], in harness: CheckHarness) throws {
        try harness.withStore { stack in
            for (offset, value) in values.enumerated() {
                _ = try stack.insert(
                    ConformanceModel.sample,
                    ["serial": .integer64(Int64(offset + 1)), key: value.map(AttributeValue.binary) ?? .null])
            }
            try stack.save()
        }
    }

    /// Each `Sample`'s value by serial, after reopening.
    private static func storedValues(in harness: CheckHarness) throws -> [Int64: AttributeValue] {
        try harness.withStore { stack in
            var values: [Int64: AttributeValue] = [:]
            for sample in try stack.objects(ConformanceModel.sample) {
                guard case .integer64(let serial) = try stack.value(sample, "serial") else { continue }
                values[serial] = try stack.value(sample, key)
            }
            return values
        }
    }

    /// Sets the value of the `Sample` with `serial` and saves; then, with the store still open,
    /// expects no file to hold any of `gone`.
    private static func set(_ value: Data?, serial: Int, in harness: CheckHarness, gone: [Data] = []) throws {
        try harness.withStore { stack in
            let sample = try require(
                try stack.objects(ConformanceModel.sample, where: "serial == \(serial)").first,
                "The Sample with serial \(serial) is missing.")
            try stack.run { try sample.setValue(value.map(AttributeValue.binary) ?? .null, forKey: key) }
            try stack.save()
            try expectNoFileHolds(gone, in: harness, "The replaced value of Sample \(serial)")
        }
    }

    /// Fails when a file in the check's folder (the store's, its side files and folders
    /// included) holds exactly one of `values`: a value the store no longer holds.
    static func expectNoFileHolds(_ values: [Data], in harness: CheckHarness, _ what: String) throws {
        let sizes = Set(values.map(\.count))
        guard
            let files = FileManager.default.enumerator(
                at: harness.directory, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        else { return }
        for case let file as URL in files {
            let properties = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            guard properties?.isRegularFile == true, let size = properties?.fileSize, sizes.contains(size),
                let contents = try? Data(contentsOf: file), values.contains(contents)
            else { continue }
            throw CheckFailure("\(what) is still kept in '\(file.lastPathComponent)' beside the store.")
        }
    }

    private static let roundTrip = category.check(
        "roundTrip", "A value above 128 KiB, a short one and nil read back equal after reopening.",
        requires: requirement
    ) { harness in
        try saveSamples([large, small, nil], in: harness)
        try expectEqual(
            try storedValues(in: harness), [1: .binary(large), 2: .binary(small), 3: .null], "Sample.\(key) by serial")
    }

    private static let inlineLimit = category.check(
        "inlineLimit",
        "Values of one byte less than 128 KiB, exactly 128 KiB and one byte more (where stores switch from keeping "
            + "a value with its object to a file) read back equal after reopening, and after being swapped.",
        requires: requirement
    ) { harness in
        let limit = 131_072
        let values = [bytes(4, count: limit - 1), bytes(5, count: limit), bytes(6, count: limit + 1)]
        try saveSamples(values, in: harness)
        try expectEqual(
            try storedValues(in: harness), [1: .binary(values[0]), 2: .binary(values[1]), 3: .binary(values[2])],
            "The values around the limit after reopening")
        try set(values[2], serial: 1, in: harness)
        try set(values[0], serial: 3, in: harness)
        try expectEqual(
            try storedValues(in: harness), [1: .binary(values[2]), 2: .binary(values[1]), 3: .binary(values[0])],
            "The values around the limit after swapping the first and the last")
    }

    private static let updates = category.check(
        "updates",
        "A large value replaced by another, then by a short one, then cleared reads back each time, and no file "
            + "keeps the replaced ones.",
        requires: requirement
    ) { harness in
        try saveSamples([large, large], in: harness)
        try set(otherLarge, serial: 1, in: harness)
        try expectEqual(try storedValues(in: harness)[1], .binary(otherLarge), "Sample 1 after the first update")
        try set(small, serial: 1, in: harness, gone: [otherLarge])
        try expectEqual(try storedValues(in: harness)[1], .binary(small), "Sample 1 after the second update")
        try set(nil, serial: 1, in: harness)
        try expectEqual(
            try storedValues(in: harness), [1: .null, 2: .binary(large)], "Sample.\(key) after clearing Sample 1")
        try expectNoFileHolds([otherLarge], in: harness, "The replaced value of Sample 1")
    }

    private static let deletion = category.check(
        "deletion", "Deleting an object removes its large value from every file beside the store.",
        requires: requirement
    ) { harness in
        try saveSamples([otherLarge, large], in: harness)
        try harness.withStore { stack in
            let first = try require(
                try stack.objects(ConformanceModel.sample, where: "serial == 1").first, "Sample 1 is missing.")
            try stack.run { try stack.context.delete(first) }
            try stack.save()
            try expectNoFileHolds([otherLarge], in: harness, "The value of the deleted Sample 1, once saved,")
        }
        try expectEqual(try storedValues(in: harness), [2: .binary(large)], "Sample.\(key) after deleting Sample 1")
        try expectNoFileHolds([otherLarge], in: harness, "The value of the deleted Sample 1")
    }

    private static let migration = category.check(
        "migration", "Migrating to the in-memory store and back keeps large values.", requires: requirement
    ) { harness in
        try saveSamples([large, small], in: harness)
        let coordinator = try harness.makeCoordinator()
        let source = try harness.openStore(in: coordinator)
        let memory = try coordinator.migratePersistentStore(source, to: nil, type: StoreType.inMemory.name)
        let back = try coordinator.migratePersistentStore(
            memory, to: harness.storeURL("back"), type: harness.suite.storeType.name, options: harness.suite.options)
        let stack = CheckStack(coordinator: coordinator, store: back)
        let values = try stack.objects(ConformanceModel.sample, sortedBy: [FetchSortDescriptor("serial")]).map {
            try stack.value($0, key)
        }
        try expectEqual(values, [.binary(large), .binary(small)], "Sample.\(key) after migrating back")
        try coordinator.remove(back)
    }

    private static let killDuringSaves = category.check(
        "killDuringSaves",
        "A process killed while saving large values leaves a committed save whose every value reads back, and no "
            + "file keeps the values of deleted objects.",
        requires: .workerExecutable
    ) { harness in
        let scenario = DurabilityScenario.largeValues
        try DurabilityChecks.killRepeatedly(scenario, harness)
        let final = try harness.withStore { stack in try DurableState(reading: stack.store) }
        let held = DurabilityScenario.save(of: final)
        let deleted = (1...max(held, 1)).map(Int64.init).filter { final.objects[$0] == nil }
        try expectNoFileHolds(deleted.map(scenario.bytes(ofSerial:)), in: harness, "A deleted Sample's value")
    }
}
