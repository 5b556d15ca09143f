import Foundation
import StrataSQLite
import StrataTestSupport
import Testing

@testable import Strata

/// The SQLite store runs batch updates itself, in one `UPDATE` (computed values and predicate
/// parts without SQL form through `strata_evaluate`), and leaves to the core's context what it
/// cannot do as a save would.
@Suite struct SQLiteBatchUpdateTests {
    private static let model: ManagedObjectModel = ManagedObjectModel {
        EntityDescription("Item") {
            AttributeDescription("number", .integer64)
            AttributeDescription("score", .double)
            AttributeDescription("small", .integer16)
        }
    }

    private func open(_ folder: TemporaryDirectory, history: Bool = false) throws -> (
        PersistentStoreCoordinator, any IncrementalStore
    ) {
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        let store = try coordinator.addStore(
            type: "SQLite", at: folder.file("items.sqlite"), options: StoreOptions(tracksPersistentHistory: history))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait { () throws in
            for number in 1...5 {
                try context.insertNewObject(forEntityName: "Item").setValue(.integer64(Int64(number)), forKey: "number")
            }
            try context.save()
        }
        return (coordinator, store)
    }

    @Test func theStoreUpdatesTheMatchingRowsAndRaisesTheirVersions() throws {
        let folder = try TemporaryDirectory()
        let (_, store) = try open(folder)
        #expect(store.capabilities.contains(.batchOperations))
        let result = try #require(
            try store.executeBatchUpdate(
                StoreBatchUpdate(
                    entityName: "Item", predicate: try FetchPredicate(format: "number >= 4"),
                    values: ["score": .double(2)])))
        let ids = try #require(result.objectIDs)
        #expect(ids.count == 2)
        #expect(result.count == 2)
        for id in ids {
            let snapshot = try #require(try store.snapshot(for: id))
            #expect(snapshot.values["score"] == .double(2))
            #expect(snapshot.version == 2)
        }
    }

    @Test func anUpdateThatListsNothingGivesItsCount() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store) = try open(folder)
        let result = try #require(
            try store.executeBatchUpdate(
                StoreBatchUpdate(
                    entityName: "Item", predicate: try FetchPredicate(format: "number <= 3"),
                    values: ["score": .double(7)], listsObjectIDs: false)))
        #expect(result == StoreBatchUpdateResult(count: 3))
        var request = FetchRequest<ManagedObject>(entityName: "Item")
        request.predicate = try FetchPredicate(format: "score == 7")
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.performAndWait { try context.count(for: request) } == 3)
    }

    @Test func aStoreRecordingHistoryRecordsTheUpdateAsOneTransaction() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store) = try open(folder, history: true)
        #expect(
            try store.executeBatchUpdate(StoreBatchUpdate(entityName: "Item", values: ["score": .double(1)])) == nil)
        let result = try store.executeBatchUpdate(
            StoreBatchUpdate(
                entityName: "Item", predicate: try FetchPredicate(format: "number > 3"), values: ["score": .double(1)],
                listsObjectIDs: false, history: StoreChangeSet.HistoryInfo(author: "batch")))
        #expect(result == StoreBatchUpdateResult(count: 2))
        guard case .transactions(let transactions) = try coordinator.execute(.fetchHistory(after: .token(nil))) else {
            Issue.record("A history fetch gave no transactions.")
            return
        }
        #expect(transactions.count == 2)
        #expect(transactions.last?.author == "batch")
        #expect(transactions.last?.changes?.map(\.updatedProperties) == [["score"], ["score"]])
    }

    @Test func computedValuesAreWorkedOutFromEachRowAsItWas() throws {
        let folder = try TemporaryDirectory()
        let (_, store) = try open(folder)
        let result = try #require(
            try store.executeBatchUpdate(
                StoreBatchUpdate(
                    entityName: "Item", predicate: try FetchPredicate(format: "number * 2 > 5"),
                    values: ["small": .integer16(1)],
                    expressions: [
                        "number": try FetchExpression(format: "number + 10"),
                        "score": try FetchExpression(format: "number / 2"),
                    ])))
        #expect(result.count == 3)
        for id in try #require(result.objectIDs) {
            let values = try #require(try store.snapshot(for: id)).values
            guard case .integer64(let number)? = values["number"] else {
                Issue.record("\(id) has no number")
                continue
            }
            #expect((13...15).contains(number))
            #expect(values["score"] == .double(Double(number - 10) / 2))
            #expect(values["small"] == .integer16(1))
        }
    }

    @Test func aComputedValueThatDoesNotFitChangesNothingAndGoesToTheContext() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store) = try open(folder)
        let tooLarge = StoreBatchUpdate(
            entityName: "Item", values: ["score": .double(9)],
            expressions: ["small": try FetchExpression(format: "number * 10000")])
        #expect(try store.executeBatchUpdate(tooLarge) == nil)
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest<ManagedObject>(entityName: "Item")
        request.predicate = try FetchPredicate(format: "score == 9 OR small != nil")
        #expect(try context.performAndWait { try context.count(for: request) } == 0)
        let error = try #require(throws: ContextError.self) {
            try coordinator.execute(
                BatchUpdateRequest(
                    entityName: "Item", propertiesToUpdate: ["small": try FetchExpression(format: "number * 10000")]))
        }
        #expect(error.code == .wrongType)
        #expect(try context.performAndWait { try context.count(for: request) } == 0)
    }

    /// Real arithmetic runs in SQL where SQL's answer is the evaluator's, and through the
    /// evaluator elsewhere: every row ends up with exactly the evaluator's value, NaN, signed
    /// zeros, infinities, nulls, large integers and divisions by zero included.
    @Test(arguments: [
        "score * 2 + number", "number / score", "score - score", "-score", "1.5 * number * number",
        "number * number + 0.5", "score * 1e308 * 10", "score * 0.0", "2.5 * 4", "(score + 0.1) * (number - 3)",
    ])
    func computedRealsAreTheEvaluatorsValuesBitForBit(_ format: String) throws {
        let folder = try TemporaryDirectory()
        let (coordinator, store) = try open(folder)
        let context = ManagedObjectContext(coordinator: coordinator)
        let scores: [AttributeValue] = [
            .double(.nan), .double(-0.0), .double(0), .double(.infinity), .null, .double(-2.5), .double(1e-300),
        ]
        let numbers: [AttributeValue] = [.integer64(1 << 60 + 1), .integer64(0), .null, .integer64(-7)]
        try context.performAndWait { () throws in
            for (index, score) in scores.enumerated() {
                for number in numbers {
                    let item = try context.insertNewObject(forEntityName: "Item")
                    try item.setValue(score, forKey: "score")
                    try item.setValue(number, forKey: "number")
                    try item.setValue(.integer16(Int16(index)), forKey: "small")
                }
            }
            try context.save()
        }
        let expression = try FetchExpression(format: format)
        let all = StoreFetchRequest(entityName: "Item", predicate: try FetchPredicate(format: "small != nil"))
        let before = try snapshots(all, in: store)
        let evaluation = FetchEvaluation()
        var expected: [ObjectID: AttributeValue] = [:]
        for snapshot in before {
            let record = KeyValueRecord(
                Dictionary(
                    uniqueKeysWithValues: ["number", "score", "small"].map {
                        ($0, .value(snapshot.values[$0] ?? .null))
                    }))
            expected[snapshot.objectID] = try evaluation.value(of: expression, for: record)
        }
        let result = try store.executeBatchUpdate(
            StoreBatchUpdate(
                entityName: "Item", predicate: try FetchPredicate(format: "small != nil"), values: [:],
                expressions: ["score": expression]))
        #expect(result?.count == before.count)
        for snapshot in try snapshots(all, in: store) {
            let want = try #require(expected[snapshot.objectID]).coercedBits
            #expect(snapshot.values["score"]?.coercedBits == want, "\(format) for \(snapshot.values)")
        }
    }
}

private func snapshots(_ request: StoreFetchRequest, in store: any IncrementalStore) throws -> [Snapshot] {
    guard case .snapshots(let snapshots) = try store.execute(request) else { return [] }
    return snapshots
}

extension AttributeValue {
    /// A double's bits (so NaN equals NaN and -0.0 differs from 0), or the value's description.
    fileprivate var coercedBits: String {
        guard case .double(let number)? = AttributeType.double.coerce(self) else { return "\(self)" }
        return String(number.bitPattern, radix: 16)
    }
}
