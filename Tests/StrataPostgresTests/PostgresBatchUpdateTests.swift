import Foundation
import StrataPostgres
import StrataTestSupport
import Testing

@testable import Strata

/// The PostgreSQL store runs a batch update of constants itself, in one `UPDATE … RETURNING`,
/// and leaves to the core's context what it cannot do in SQL.
@Suite struct PostgresBatchUpdateTests {
    private static let model: ManagedObjectModel = ManagedObjectModel {
        EntityDescription("Item") {
            AttributeDescription("number", .integer64)
            AttributeDescription("score", .double)
            AttributeDescription("label", .string)
            AttributeDescription("tally", .integer64, optional: false, default: 0)
        }
        EntityDescription("Special", parent: "Item") {
            AttributeDescription("grade", .integer16)
        }
    }

    /// A store with items numbered 1 to 5 (4 and 5 `Special`), logging every statement to `log`.
    private func open(_ name: String, history: Bool = false, log: CapturedLog = CapturedLog()) throws -> (
        PersistentStoreCoordinator, any IncrementalStore
    ) {
        let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema(name))
        let coordinator = try PersistentStoreCoordinator(
            model: Self.model, storeTypes: [.postgres], logger: log.logger(level: .warning))
        let store = try coordinator.addStore(
            type: StoreType.postgres.name, at: url,
            options: StoreOptions(settings: ["slowStatementThreshold": "0"], tracksPersistentHistory: history))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait { () throws in
            for number in 1...5 {
                let item = try context.insertNewObject(forEntityName: number > 3 ? "Special" : "Item")
                try item.setValue(.integer64(Int64(number)), forKey: "number")
            }
            try context.save()
        }
        return (coordinator, store)
    }

    @Test func theStoreUpdatesTheMatchingRowsInOneStatementAndRaisesTheirVersions() throws {
        let log = CapturedLog()
        let (_, store) = try open("batch-update", log: log)
        #expect(store.capabilities.contains(.batchOperations))
        let before = log.lines.count
        let result = try #require(
            try store.executeBatchUpdate(
                StoreBatchUpdate(
                    entityName: "Item", predicate: try FetchPredicate(format: "number >= 3"),
                    values: ["score": .double(2), "label": .string("done")])))
        let updates = log.lines.dropFirst(before).compactMap { $0.metadata["sql"] }.filter { $0.hasPrefix("UPDATE") }
        #expect(updates.count == 1, "\(updates)")
        let ids = try #require(result.objectIDs)
        #expect(Set(ids.map(\.entityName)) == ["Item", "Special"])
        #expect(result.count == 3)
        for id in ids {
            let snapshot = try #require(try store.snapshot(for: id))
            #expect(snapshot.values["score"] == .double(2))
            #expect(snapshot.values["label"] == .string("done"))
            #expect(snapshot.version == 2)
        }
        let first = try #require(try objectIDs("number < 3", in: store).first)
        let untouched = try #require(try store.snapshot(for: first))
        #expect(untouched.version == 1 && untouched.values["label"] == .null)
    }

    @Test func anUpdateOfOneEntityWithoutSubentitiesLeavesThemAlone() throws {
        let (_, store) = try open("batch-update-kinds")
        let result = try store.executeBatchUpdate(
            StoreBatchUpdate(entityName: "Item", includesSubentities: false, values: ["score": .double(5)]))
        #expect(result?.objectIDs.map { Set($0.map(\.entityName)) } == ["Item"])
        #expect(result?.count == 3)
        let special = try store.executeBatchUpdate(
            StoreBatchUpdate(entityName: "Special", values: ["grade": .integer16(4)], listsObjectIDs: false))
        #expect(special == StoreBatchUpdateResult(count: 2))
    }

    @Test func whatSQLCannotDoGoesToTheContextWithTheSameResult() throws {
        let (coordinator, store) = try open("batch-update-fallback")
        let untranslated = try FetchPredicate(format: "label ==[c] nil OR number > 100")
        #expect(
            try store.executeBatchUpdate(
                StoreBatchUpdate(entityName: "Item", predicate: untranslated, values: ["score": .double(1)])) == nil)
        #expect(
            try store.executeBatchUpdate(
                StoreBatchUpdate(
                    entityName: "Item", values: [:], expressions: ["score": try FetchExpression(format: "number * 2")]))
                == nil)
        var request = BatchUpdateRequest(
            entityName: "Item", predicate: try FetchPredicate(format: "label LIKE[c] 'x*' OR number < 3"),
            propertiesToUpdate: ["score": .constant(.double(9))])
        request.resultType = .count
        #expect(try coordinator.execute(request).count == 2)
        #expect(try objectIDs("score == 9", in: store).count == 2)
    }

    @Test func computedValuesAreComputedInTheStatementAsTheEvaluatorComputesThem() throws {
        let log = CapturedLog()
        let (_, store) = try open("batch-compute", log: log)
        #expect(store.capabilities.contains(.batchComputedValues))
        _ = try store.executeBatchUpdate(StoreBatchUpdate(entityName: "Item", values: ["score": .double(0.1)]))
        let before = log.lines.count
        let result = try store.executeBatchUpdate(
            StoreBatchUpdate(
                entityName: "Item", predicate: try FetchPredicate(format: "number <= 4"), values: [:],
                expressions: [
                    "score": try FetchExpression(format: "score * 3 + number"),
                    "number": try FetchExpression(format: "number * 3 - 1"),
                ]))
        #expect(result?.count == 4)
        let updates = log.lines.dropFirst(before).compactMap { $0.metadata["sql"] }.filter { $0.hasPrefix("UPDATE") }
        #expect(updates.count == 1, "\(updates)")
        for id in try objectIDs("number != 5", in: store) {
            let values = try #require(try store.snapshot(for: id)).values
            guard case .integer64(let number) = values["number"] else {
                Issue.record("No number in \(values)")
                continue
            }
            let original = (number + 1) / 3
            #expect(number == original * 3 - 1)
            #expect(values["score"] == .double(0.1 * 3 + Double(original)), "bit for bit as Swift computes it")
        }
    }

    @Test func aValueTheServerRefusesToComputeGoesToTheContextAndChangesNothing() throws {
        let (coordinator, store) = try open("batch-compute-refused")
        _ = try store.executeBatchUpdate(
            StoreBatchUpdate(
                entityName: "Item", values: ["score": .double(1e308), "number": .integer64(.max)],
                listsObjectIDs: false))
        for format in ["score * 10", "score / 0"] {
            let refused = StoreBatchUpdate(
                entityName: "Item", values: ["label": .string("changed")],
                expressions: ["score": try FetchExpression(format: format)])
            #expect(try store.executeBatchUpdate(refused) == nil, "\(format)")
        }
        let overflow = StoreBatchUpdate(
            entityName: "Item", values: [:], expressions: ["number": try FetchExpression(format: "number + 1")])
        #expect(try store.executeBatchUpdate(overflow) == nil)
        #expect(try objectIDs("label == 'changed'", in: store).isEmpty)
        let versions = try objectIDs("TRUEPREDICATE", in: store).map { try store.snapshot(for: $0)?.version }
        #expect(versions.allSatisfy { $0 == 2 }, "Only the first update changed the rows: \(versions)")

        var request = BatchUpdateRequest(
            entityName: "Item", propertiesToUpdate: ["score": try FetchExpression(format: "score * 10")])
        request.resultType = .count
        #expect(try coordinator.execute(request).count == 5)
        #expect(try objectIDs("score == 1e308", in: store).isEmpty)
        let first = try #require(try objectIDs("TRUEPREDICATE", in: store).first)
        #expect(try store.snapshot(for: first)?.values["score"] == .double(.infinity))
    }

    @Test func aValueThatMayBeNullGoesToTheContextForANonOptionalAttribute() throws {
        let (_, store) = try open("batch-compute-null")
        let kept = StoreBatchUpdate(
            entityName: "Item", values: [:], expressions: ["tally": try FetchExpression(format: "tally + number")])
        #expect(try store.executeBatchUpdate(kept) == nil, "number is optional, so tally + number may be null")
        let counted = StoreBatchUpdate(
            entityName: "Item", values: [:], expressions: ["tally": try FetchExpression(format: "tally + 2")])
        #expect(try store.executeBatchUpdate(counted)?.count == 5)
        let tallies = try objectIDs("tally == 2", in: store)
        #expect(tallies.count == 5)
    }

    /// A store keeping history takes only an update it can record (what it records is checked by
    /// the conformance suite's `T.batchRequestsRecorded`, which runs it in the store).
    @Test func aStoreRecordingHistoryTakesOnlyAnUpdateItCanRecord() throws {
        let (_, store) = try open("batch-update-history", history: true)
        #expect(
            try store.executeBatchUpdate(StoreBatchUpdate(entityName: "Item", values: ["score": .double(1)])) == nil)
        let recorded = StoreBatchUpdate(
            entityName: "Item", values: ["score": .double(1)], history: StoreChangeSet.HistoryInfo(author: "batch"))
        #expect(try store.executeBatchUpdate(recorded)?.count == 5)
    }

    private func objectIDs(_ format: String, in store: any IncrementalStore) throws -> [ObjectID] {
        let request = StoreFetchRequest(
            entityName: "Item", predicate: try FetchPredicate(format: format), resultType: .objectIDs)
        guard case .objectIDs(let ids) = try store.execute(request) else { return [] }
        return ids
    }
}
