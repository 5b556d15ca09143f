import Foundation
import Strata
import Testing

@testable import StrataSQLite

/// Each operator the store claims to push down runs wholly in SQL (no in-memory fallback) and
/// gives the in-memory evaluator's answer, in the evaluator's order.
@Suite struct SQLitePushDownTests {
    static let pushedDown: [String] = [
        "name == 'Ana'", "name != 'Ana'", "name == nil", "name != nil", "age < 30", "age <= 30", "age > 30",
        "age >= 30", "age == nil", "30 < age", "score == 0", "score != 0", "score < 2", "score > -1",
        "score BETWEEN {0, 2}", "age IN {20, 23, 99}", "name IN {'Bob', 'Zoë', nil}", "active == YES",
        "active == NO", "born < CAST(0, 'NSDate')", "born > CAST(-100000, 'NSDate')",
        "name BEGINSWITH 'An'", "name BEGINSWITH[c] 'an'", "name ENDSWITH 'e'", "name CONTAINS 'ß'",
        "name CONTAINS[c] 'SS'", "name ==[c] 'STRASSE'", "name ==[d] 'cafe'", "name ==[cd] 'CAFE'",
        "name <[c] 'b'", "name LIKE 'A*'", "name LIKE[c] '?na*'", "name MATCHES '[A-Z].*'",
        "name MATCHES[c] 'ana.*'", "name CONTAINS '🎉'", "NOT (age > 30)", "age > 30 OR name == 'Bob'",
        "age > 30 AND active == YES", "TRUEPREDICATE", "FALSEPREDICATE", "team.name == 'Red'",
        "team.name BEGINSWITH[c] 'b'", "team.parent.name == 'Red'", "team == nil", "team != nil",
        "ANY tags.label == 'x'", "ALL tags.label IN {'x', 'y'}", "NONE tags.label == 'z'", "tags.@count > 1",
        "tags.@count == 0", "SUBQUERY(tags, $t, $t.label == 'x' OR $t.label == 'w').@count >= 1",
        "team.members.@count > 3", "team.members.@max.age > 40", "team.members.@min.score < 0",
        "team.members.@sum.age > 90", "ANY team.members.name == 'Bob'",
    ]

    @Test(arguments: pushedDown)
    func runsInSQLWithTheEvaluatorsAnswer(_ format: String) throws {
        let fixture = try SQLitePushDownFixture()
        let predicate = try FetchPredicate(format: format)
        let sorts = [FetchSortDescriptor("name"), FetchSortDescriptor("score", ascending: false)]
        for resultType in [StoreFetchRequest.ResultType.snapshots, .count] {
            let request = StoreFetchRequest(
                entityName: "Person", predicate: predicate, sortDescriptors: sorts, resultType: resultType)
            let before = fixture.sqlite.statistics.inMemoryFetches
            let answer = try fixture.sqlite.execute(request)
            #expect(fixture.sqlite.statistics.inMemoryFetches == before, "\(format) fell back to memory")
            #expect(answer == (try fixture.oracle.execute(request)), "\(format) as \(resultType)")
        }
    }

    @Test(arguments: ["name", "score", "born", "age", "active", "photo", "team.name"])
    func sortsRunInSQLInTheEvaluatorsOrder(_ keyPath: String) throws {
        let fixture = try SQLitePushDownFixture()
        for ascending in [true, false] {
            let request = StoreFetchRequest(
                entityName: "Person", sortDescriptors: [FetchSortDescriptor(keyPath, ascending: ascending)],
                resultType: .objectIDs)
            let before = fixture.sqlite.statistics.inMemoryFetches
            let sorted = try fixture.sqlite.execute(request)
            #expect(fixture.sqlite.statistics.inMemoryFetches == before)
            guard case .objectIDs(let ids) = sorted,
                case .snapshots(let snapshots) = try fixture.oracle.execute(
                    StoreFetchRequest(entityName: "Person"))
            else { return }
            let byID = Dictionary(uniqueKeysWithValues: snapshots.map { ($0.objectID, $0) })
            let descriptor = FetchSortDescriptor(keyPath, ascending: ascending)
            for (first, second) in zip(ids, ids.dropFirst()) where !keyPath.contains(".") {
                let order = descriptor.compare(
                    byID[first]?.values[keyPath] ?? .null, byID[second]?.values[keyPath] ?? .null)
                #expect(order != .orderedDescending, "\(keyPath) \(ascending ? "ascending" : "descending")")
            }
        }
    }

    /// Parts that have no SQL form but read only the entity's attributes are evaluated row by
    /// row inside SQL by the core's evaluator (`strata_evaluate`): no fallback to memory, and
    /// limits and offsets apply in SQL.
    static let evaluatedRowByRow: [String] = [
        "now() > born", "age * 2 > score + 40", "age + 1 == 24", "age ** 2 > 600 OR name == 'Bob'",
        "TERNARY(active == YES, age, 0) > 25", "abs(score) >= 1.5 AND name BEGINSWITH 'A'",
        "age != 23 AND age / (age - 23) > 1",
        "ANY tags.label == 'x' AND age / (age - 23) > 1", "lowercase(name) == 'ana'", "age == 23.0 OR name == nil",
        "modulus:by:(age, 2) == 0 AND score != nil", "-score < 0",
    ]

    @Test(arguments: evaluatedRowByRow)
    func partsWithoutSQLFormAreEvaluatedRowByRowInSQL(_ format: String) throws {
        let fixture = try SQLitePushDownFixture()
        let predicate = try FetchPredicate(format: format)
        let sorts = [FetchSortDescriptor("name"), FetchSortDescriptor("score", ascending: false)]
        for resultType in [StoreFetchRequest.ResultType.snapshots, .count, .objectIDs] {
            for (limit, offset) in [(nil, 0), (2, 1)] as [(Int?, Int)] {
                var request = StoreFetchRequest(
                    entityName: "Person", predicate: predicate, sortDescriptors: sorts, resultType: resultType)
                request.fetchLimit = limit
                request.fetchOffset = offset
                let before = fixture.sqlite.statistics.inMemoryFetches
                let answer = try fixture.sqlite.execute(request)
                #expect(fixture.sqlite.statistics.inMemoryFetches == before, "\(format) fell back to memory")
                #expect(
                    answer == (try fixture.oracle.execute(request)), "\(format) as \(resultType), limit \(limit ?? 0)")
            }
        }
    }

    /// An evaluation error inside SQL is the evaluator's own error, as in memory.
    @Test func anEvaluationErrorInSQLIsTheEvaluatorsError() throws {
        let fixture = try SQLitePushDownFixture()
        let request = StoreFetchRequest(
            entityName: "Person", predicate: try FetchPredicate(format: "age / (age - 23) > 1"))
        #expect(throws: FetchPredicateError.self) { try fixture.oracle.execute(request) }
        let error = try #require(throws: FetchPredicateError.self) { try fixture.sqlite.execute(request) }
        #expect(error.code == .evaluation)
        #expect("\(error)".contains("divides by zero"))
    }

    /// What the store does not translate still gives the evaluator's answer, in memory.
    @Test(arguments: [
        "attribute against attribute", "integer average", "localized sort", "evaluable after a relationship",
        "sub-entity attribute",
    ])
    func whatDoesNotTranslateFallsBackWithTheSameAnswer(_ shape: String) throws {
        let fixture = try SQLitePushDownFixture()
        var request = StoreFetchRequest(entityName: "Person", sortDescriptors: [FetchSortDescriptor("name")])
        switch shape {
        case "attribute against attribute": request.predicate = try FetchPredicate(format: "name ==[c] team.name")
        case "integer average": request.predicate = try FetchPredicate(format: "team.members.@avg.age > 25")
        case "evaluable after a relationship":
            request.predicate = try FetchPredicate(format: "name !=[c] team.name AND age * 2 > 50")
        case "sub-entity attribute":
            request.entityName = "Manager"
            request.predicate = try FetchPredicate(format: "level * 2 == 6 AND name ==[c] team.name")
        default: request.sortDescriptors = [FetchSortDescriptor("name", comparison: .localizedStandard)]
        }
        let before = fixture.sqlite.statistics.inMemoryFetches
        #expect(try fixture.sqlite.execute(request) == (try fixture.oracle.execute(request)))
        #expect(fixture.sqlite.statistics.inMemoryFetches == before + 1)
    }
}
