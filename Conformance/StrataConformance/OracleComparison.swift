import Foundation
import Strata

/// The store under test and the oracle side by side, and the comparison of what they fetch,
/// by the `serial` of each object.
struct OracleComparison {
    /// The stack of the store under test.
    let subject: CheckStack
    /// The stack of the in-memory oracle.
    let oracle: CheckStack

    /// Fails unless the store under test answers `query` as the oracle does: through a
    /// context (count included), and through the store SPI when the store declares every
    /// feature the predicate needs. Results compare in order when the query is sorted, as
    /// sets otherwise.
    func expectSameResults(_ query: OracleQuery) throws {
        try expectSameResults { _ in query }
    }

    /// Fails unless the store under test answers the query `makeQuery` builds for it as the
    /// oracle answers the one built for the oracle: for queries whose arguments differ
    /// between the stores, such as object IDs.
    func expectSameResults(_ makeQuery: (CheckStack) throws -> OracleQuery) throws {
        let query = try makeQuery(subject)
        let oracleQuery = try makeQuery(oracle)
        let expected = try contextSerials(oracle, oracleQuery)
        if let pinned = query.expected {
            try compare(expected, pinned, query, "the oracle, fetching through a context,")
        }
        try compare(try contextSerials(subject, query), expected, query, "fetching through a context")
        let count = try subject.run { try subject.context.count(for: try fetchRequest(subject, query)) }
        try expect(
            count == expected.count,
            "\(query), counting through a context: expected \(expected.count), got \(count).")
        let predicate = try query.predicate()
        guard predicate.map({ subject.store.predicateFeatures.isSuperset(of: $0.requiredFeatures) }) ?? true else {
            return
        }
        let oracleSerials = try storeSerials(oracle, oracleQuery)
        try compare(try storeSerials(subject, query), oracleSerials, query, "executed by the store")
        try expectEqual(
            try subject.store.fetchedCount(try storeRequest(query)), oracleSerials.count,
            "\(query), counted by the store")
    }

    /// The ID of the object of `entity` with `serial` in `stack`'s store.
    func objectID(_ entity: String, serial: Int64, in stack: CheckStack) throws -> ObjectID {
        let objects = try stack.objects(entity, where: "serial == %@", arguments: [serial])
        return try require(objects.first, "\(entity) \(serial) of the canonical data set is missing.").objectID
    }

    /// The serials of the objects `query` fetches through the context of `stack`.
    func contextSerials(_ stack: CheckStack, _ query: OracleQuery) throws -> [Int64] {
        try stack.fetch(try fetchRequest(stack, query)).map { try Self.serial(try stack.value($0, "serial")) }
    }

    private func fetchRequest(_ stack: CheckStack, _ query: OracleQuery) throws -> FetchRequest<ManagedObject> {
        var request = FetchRequest<ManagedObject>(entityName: query.entity)
        request.predicate = try query.predicate()
        request.sortDescriptors = query.sortDescriptors
        request.fetchOffset = query.offset
        request.fetchLimit = query.limit
        return request
    }

    private func storeRequest(_ query: OracleQuery) throws -> StoreFetchRequest {
        StoreFetchRequest(
            entityName: query.entity, predicate: try query.predicate(), sortDescriptors: query.sortDescriptors,
            fetchOffset: query.offset, fetchLimit: query.limit)
    }

    private func storeSerials(_ stack: CheckStack, _ query: OracleQuery) throws -> [Int64] {
        let snapshots = try stack.store.fetchedSnapshots(try storeRequest(query))
        return try snapshots.map { try Self.serial($0.values["serial"] ?? .null) }
    }

    private func compare(_ actual: [Int64], _ expected: [Int64], _ query: OracleQuery, _ how: String) throws {
        let same = query.isOrdered ? actual == expected : actual.sorted() == expected.sorted()
        guard !same else { return }
        let missing = expected.filter { !actual.contains($0) }
        let unexpected = actual.filter { !expected.contains($0) }
        var message = "\(query), \(how): expected serials \(expected), got \(actual)"
        if !missing.isEmpty { message += "; missing \(missing)" }
        if !unexpected.isEmpty { message += "; unexpected \(unexpected)" }
        if missing.isEmpty && unexpected.isEmpty { message += "; same objects in another order" }
        throw CheckFailure(message + ".")
    }

    /// The serial number in `value`.
    static func serial(_ value: AttributeValue) throws -> Int64 {
        try require(Int64(attributeValue: value), "An object's serial is \(value.exactDescription), not an integer.")
    }
}

extension CheckHarness {
    /// Fills `dataSet` into the store under test and into the oracle, then reads both back
    /// through fresh coordinators and runs `body` with them side by side.
    func withCanonicalData(_ dataSet: CanonicalDataSet, _ body: (OracleComparison) throws -> Void) throws {
        try withStore(configuration: dataSet.configuration) { try dataSet.fill($0) }
        try withOracle(configuration: dataSet.configuration) { try dataSet.fill($0) }
        try withStore(configuration: dataSet.configuration) { subject in
            try withOracle { oracle in try body(OracleComparison(subject: subject, oracle: oracle)) }
        }
    }

    /// A check that fills `dataSet` and compares every query of `queries` with the oracle.
    static func oracleCheck(_ dataSet: CanonicalDataSet, _ queries: [OracleQuery])
        -> @Sendable (CheckHarness) throws
        -> Void
    {
        { harness in
            try harness.withCanonicalData(dataSet) { comparison in
                for query in queries { try comparison.expectSameResults(query) }
            }
        }
    }
}
