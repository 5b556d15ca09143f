import Foundation
import Strata

/// L: a model's configurations striped across several stores of the type under test and the
/// in-memory store: routing, fetches merged across stores, removing a store, read-only stores.
enum StripingChecks {
    static var all: [ConformanceCheck] {
        [
            routesByConfiguration, mixesWithTheInMemoryStore, mergesSortedLimitedFetches, removingAStoreKeepsTheOther,
            readOnlyStoreRefusesWrites,
        ]
    }

    private static let category = ConformanceCategory.striping

    static let routesByConfiguration = category.check(
        "routesByConfiguration", "New objects go to the store whose configuration holds their entity, and stay there."
    ) { harness in
        let coordinator = try harness.makeCoordinator()
        let records = try harness.openStore("records", configuration: ConformanceModel.records, in: coordinator)
        let graph = try harness.openStore("graph", configuration: ConformanceModel.graph, in: coordinator)
        let stack = CheckStack(coordinator: coordinator, store: records)
        let sample = try stack.insert(ConformanceModel.sample, ["serial": 1])
        let person = try stack.insert("Person", ["serial": 2, "name": "Ada"])
        try stack.save()
        try expectEqual(sample.objectID.storeIdentifier, records.identifier, "The store of the new Sample")
        try expectEqual(person.objectID.storeIdentifier, graph.identifier, "The store of the new Person")
        try coordinator.remove(records)
        try coordinator.remove(graph)
        try harness.withStore("graph", configuration: ConformanceModel.graph) { stack in
            try expectEqual(try stack.objects("Person").count, 1, "People in the Graph store after reopening")
        }
        try harness.withStore("records", configuration: ConformanceModel.records) { stack in
            try expectEqual(
                try stack.objects(ConformanceModel.sample).count, 1, "Samples in the Records store after reopening")
        }
    }

    static let mixesWithTheInMemoryStore = category.check(
        "mixesWithTheInMemoryStore", "One save writes to a store of this type and an in-memory store side by side."
    ) { harness in
        let coordinator = try harness.makeCoordinator()
        let records = try harness.openStore("records", configuration: ConformanceModel.records, in: coordinator)
        let memory = try coordinator.addStore(type: StoreType.inMemory.name, configuration: ConformanceModel.graph)
        let stack = CheckStack(coordinator: coordinator, store: records)
        for serial in 1...3 {
            try stack.insert(ConformanceModel.sample, ["serial": .integer64(Int64(serial))])
            try stack.insert("Person", ["serial": .integer64(Int64(serial))])
        }
        try stack.save()
        let samples = try stack.objects(ConformanceModel.sample, sortedBy: [FetchSortDescriptor("serial")])
        try expectEqual(
            samples.map(\.objectID.storeIdentifier), Array(repeating: records.identifier, count: 3),
            "The stores of the Samples")
        try expectEqual(
            try stack.objects("Person").map(\.objectID.storeIdentifier), Array(repeating: memory.identifier, count: 3),
            "The stores of the People")
        try coordinator.remove(records)
    }

    static let mergesSortedLimitedFetches = category.check(
        "mergesSortedLimitedFetches",
        "A sorted, offset and limited fetch over two stores of this type reads as one store."
    ) { harness in
        let (coordinator, first, second) = try twoRecordStores(harness)
        let stack = CheckStack(coordinator: coordinator, store: first)
        try fillAlternately(stack, first: first, second: second)
        var request = try stack.request(
            ConformanceModel.sample, sortedBy: [FetchSortDescriptor("serial", ascending: false)])
        request.fetchOffset = 2
        request.fetchLimit = 5
        let serials = try stack.fetch(request).map { try stack.value($0, "serial") }
        try expectEqual(serials, [7, 6, 5, 4, 3], "Serials of the page at offset 2, limit 5, descending")
        let count = try stack.run { try stack.context.count(for: try stack.request(ConformanceModel.sample)) }
        try expectEqual(count, 10, "The count over both stores")
        try coordinator.remove(first)
        try coordinator.remove(second)
    }

    static let removingAStoreKeepsTheOther = category.check(
        "removingAStoreKeepsTheOther", "After one of two stores is removed, the other still fetches and saves."
    ) { harness in
        let (coordinator, first, second) = try twoRecordStores(harness)
        let stack = CheckStack(coordinator: coordinator, store: first)
        try fillAlternately(stack, first: first, second: second)
        try coordinator.remove(first)
        let fresh = CheckStack(coordinator: coordinator, store: second)
        let serials = try fresh.objects(ConformanceModel.sample, sortedBy: [FetchSortDescriptor("serial")])
            .map { try fresh.value($0, "serial") }
        try expectEqual(serials, [1, 3, 5, 7, 9], "Serials left after removing the store with the even ones")
        let added = try fresh.insert(ConformanceModel.sample, ["serial": 11])
        try fresh.save()
        try expectEqual(
            added.objectID.storeIdentifier, second.identifier, "The store of a Sample saved after the removal")
        try coordinator.remove(second)
    }

    static let readOnlyStoreRefusesWrites = category.check(
        "readOnlyStoreRefusesWrites",
        "A store opened read-only refuses a save with readOnly and keeps its objects; a missing file is not opened read-only."
    ) { harness in
        var readOnly = harness.suite.options
        readOnly.isReadOnly = true
        guard harness.isFileBacked else {
            try harness.withStore("readOnly", options: readOnly) { stack in
                try stack.insert(ConformanceModel.sample, ["serial": 1])
                try expectReadOnlyRefusal(stack)
                try expectEqual(
                    try stack.store.execute(StoreFetchRequest(entityName: ConformanceModel.sample, resultType: .count)),
                    .count(0), "Samples in the read-only store after the refused save")
            }
            return
        }
        // Opening a file that is not there read-only would give a silently empty store.
        try expectError(
            "a StoreError opening a missing file read-only",
            { try harness.withStore("missing", options: readOnly) { _ in } },
            matches: { $0 is StoreError })
        try harness.withStore { stack in
            try stack.insert(ConformanceModel.sample, ["serial": 1, "string": "kept"])
            try stack.save()
        }
        try harness.withStore(options: readOnly) { stack in
            let object = try require(try stack.objects(ConformanceModel.sample).first, "The saved Sample is missing.")
            try stack.run { try object.setValue("changed", forKey: "string") }
            try expectReadOnlyRefusal(stack)
        }
        try harness.withStore { stack in
            let object = try require(try stack.objects(ConformanceModel.sample).first, "The saved Sample is missing.")
            try expectEqual(try stack.value(object, "string"), "kept", "Sample.string after a refused save")
        }
    }

    /// Saves `stack`, which must fail with a `StoreError` with code readOnly (possibly inside a `ContextError`).
    private static func expectReadOnlyRefusal(_ stack: CheckStack) throws {
        try expectError(
            "a StoreError with code readOnly", stack.save,
            matches: { error in
                (error as? StoreError)?.code == .readOnly
                    || ((error as? ContextError)?.underlying as? StoreError)?.code == .readOnly
            })
    }

    /// A coordinator with two stores of the type under test, both holding the Records configuration.
    private static func twoRecordStores(
        _ harness: CheckHarness
    ) throws -> (PersistentStoreCoordinator, any IncrementalStore, any IncrementalStore) {
        let coordinator = try harness.makeCoordinator()
        let first = try harness.openStore("first", configuration: ConformanceModel.records, in: coordinator)
        let second = try harness.openStore("second", configuration: ConformanceModel.records, in: coordinator)
        return (coordinator, first, second)
    }

    /// Saves Samples 0...9, the even ones in `first` and the odd ones in `second`.
    private static func fillAlternately(
        _ stack: CheckStack, first: any IncrementalStore, second: any IncrementalStore
    ) throws {
        for serial in 0..<10 {
            let object = try stack.insert(ConformanceModel.sample, ["serial": .integer64(Int64(serial))])
            stack.run { stack.context.assign(object, to: serial.isMultiple(of: 2) ? first : second) }
        }
        try stack.save()
    }
}
