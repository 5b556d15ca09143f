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
}
