import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// Each form the PostgreSQL store translates runs wholly in SQL (nothing left to evaluate in
/// memory) and gives the in-memory evaluator's answer, in the evaluator's order; each form it
/// leaves to the evaluator gives that answer too.
@Suite struct PostgresPushDownTests {
    /// A PostgreSQL store and an in-memory store with the same identifier holding
    /// ``PushDownGraph``.
    struct Fixture {
        let store: PostgresStore
        let oracle: any IncrementalStore

        init() throws {
            let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("pushdown"))
            let identifier = UUID().uuidString
            store = try PostgresStore.open(
                StoreOpenRequest(model: PushDownGraph.model, url: url, identifierForNewStore: identifier))
            oracle = try InMemoryStore.open(
                StoreOpenRequest(model: PushDownGraph.model, identifierForNewStore: identifier))
            let changes = try PushDownGraph.changeSet(ids: store)
            try store.save(changes)
            try oracle.save(changes)
        }

        /// Whether the store's fetch of `request` leaves nothing to evaluate in memory.
        func isInSQL(_ request: StoreFetchRequest) throws -> Bool {
            let explanation = try store.explain(request)
            return explanation.evaluatedInMemory.isEmpty && !explanation.sortsInMemory
        }
    }

    static let fixture = Result { try Fixture() }

    static let inSQL: [String] = [
        "name == 'Ana'", "name != 'Ana'", "name == nil", "age < 30", "age >= 30", "score BETWEEN {0, 2}",
        "age IN {20, 23, 99}", "active == YES", "born < CAST(0, 'NSDate')", "name BEGINSWITH 'An'",
        "name CONTAINS 'ß'", "NOT (age > 30)", "age > 30 OR name == 'Bob'", "team.name == 'Red'",
        "team.parent.name == 'Red'", "team == nil", "ANY tags.label == 'x'", "ALL tags.label IN {'x', 'y'}",
        "NONE tags.label == 'z'", "ANY tags.label BEGINSWITH 'w'", "tags.@count > 1", "tags.@count == 0",
        "NOT (ANY tags.label == 'x') AND age > 20",
        "SUBQUERY(tags, $t, $t.label == 'x' OR $t.label == 'w').@count >= 1",
        "SUBQUERY(tags, $t, label == 'y').@count == 0", "SUBQUERY(tags, $t, $t != nil).@count > 1",
    ]

    /// Membership of an object in a to-many relationship, both ways round, for a tag of the
    /// graph: `%@ IN tags` and `tags CONTAINS %@`.
    static let membership = ["IN", "CONTAINS"]

    /// What stays with the evaluator: options, patterns, arithmetic on both sides, collections
    /// reached through a to-one (where a missing object's answer differs from SQL's), and
    /// subqueries whose predicate does not translate.
    static let inMemory: [String] = [
        "name ==[c] 'ana'", "name LIKE 'A*'", "name MATCHES '[A-Z].*'", "age * 2 > score + 40",
        "team.members.@count > 3", "ANY team.members.name == 'Bob'", "team.members.@max.age > 40",
        "SUBQUERY(tags, $t, $t.label ==[c] 'X').@count >= 1",
    ]

    /// Aggregates of a team's members (people and a manager): sums of integers, the least and
    /// greatest integer, number (NaN and infinities among the scores) and date, in SQL; the
    /// average, and an attribute only the manager has, with the evaluator.
    static let aggregates: [(String, inSQL: Bool)] = [
        ("members.@sum.age > 50", true), ("members.age.@sum <= 60", true), ("members.@sum.age == 0", true),
        ("members.@max.age >= 30", true), ("members.@min.age < 25", true), ("members.@min.age == nil", true),
        ("members.@max.score > 2", true), ("members.@min.score < 0", true), ("NOT (members.@max.score > 2)", true),
        ("members.@max.born > CAST(0, 'NSDate')", true), ("members.@avg.age > 20", false),
        ("members.@max.name > 'B'", false), ("members.@sum.score > 1", false),
    ]

    /// Arithmetic compared with a constant: integers in SQL as `int8`, with a double as `float8`
    /// (NaN and infinities among the scores); an integer division, a constant of another kind
    /// and a quantified comparison with the evaluator. An overflow or a division by zero, which
    /// the server refuses to compute, translates but is answered by the evaluator.
    static let arithmetic: [(String, inSQL: Bool)] = [
        ("age * 2 > 50", true), ("age + 1 == 24", true), ("age - 20 BETWEEN {0, 5}", true), ("60 > age * 2", true),
        ("age + 1 IN {21, 24, 99}", true), ("age * 2 == nil", true), ("score * 2 > 3", true),
        ("score - score == 0", true), ("score + age < 30", true), ("NOT (age * 3 <= 69)", true),
        ("score / 0 > 1", true), ("age * 9223372036854775807 > 0", true), ("age / 2 > 10", false),
        ("age * 2 == 46.5", false), ("ANY tags.label == 'x' AND age * 2 > 50", true),
    ]

    @Test(arguments: arithmetic)
    func arithmeticComparedWithAConstantGivesTheEvaluatorsAnswer(_ form: String, inSQL: Bool) throws {
        try compare(try FetchPredicate(format: form), form, inSQL: inSQL)
    }

    /// Inside a transaction (a query generation's, a save's), a fetch whose arithmetic the
    /// server refuses is answered by the evaluator and leaves the transaction usable.
    @Test func arithmeticTheServerRefusesInsideATransactionLeavesItUsable() throws {
        let fixture = try Self.fixture.get()
        let overflow = StoreFetchRequest(
            entityName: "Person", predicate: try FetchPredicate(format: "age * 9223372036854775807 > 0"),
            sortDescriptors: [FetchSortDescriptor("name")], resultType: .objectIDs)
        let everyone = StoreFetchRequest(entityName: "Person", resultType: .count)
        let (answer, count) = try fixture.store.withConnection { connection in
            try connection.transaction(isolation: "REPEATABLE READ") {
                (
                    try fixture.store.execute(overflow, on: connection),
                    try fixture.store.execute(everyone, on: connection)
                )
            }
        }
        #expect(answer == (try fixture.oracle.execute(overflow)))
        #expect(count == (try fixture.oracle.execute(everyone)))
    }

    @Test(arguments: aggregates)
    func aggregatesOfATeamsMembersGiveTheEvaluatorsAnswer(_ form: String, inSQL: Bool) throws {
        try compare(try FetchPredicate(format: form), form, inSQL: inSQL, entity: "Team")
    }

    private func compare(_ predicate: FetchPredicate, _ format: String, inSQL: Bool, entity: String = "Person")
        throws
    {
        let fixture = try Self.fixture.get()
        let sorts =
            entity == "Person"
            ? [FetchSortDescriptor("name"), FetchSortDescriptor("score", ascending: false)]
            : [FetchSortDescriptor("name")]
        for resultType in [StoreFetchRequest.ResultType.snapshots, .count] {
            let request = StoreFetchRequest(
                entityName: entity, predicate: predicate, sortDescriptors: sorts, resultType: resultType)
            #expect(try fixture.isInSQL(request) == inSQL, "\(format) \(inSQL ? "runs" : "does not run") in SQL")
            #expect(try fixture.store.execute(request) == fixture.oracle.execute(request), "\(format) as \(resultType)")
        }
    }

    @Test(arguments: inSQL)
    func runsInSQLWithTheEvaluatorsAnswer(_ format: String) throws {
        try compare(try FetchPredicate(format: format), format, inSQL: true)
    }

    @Test(arguments: membership)
    func membershipOfAnObjectRunsInSQL(_ form: String) throws {
        let fixture = try Self.fixture.get()
        let tags = try fixture.oracle.execute(StoreFetchRequest(entityName: "Tag", resultType: .objectIDs))
        guard case .objectIDs(let ids) = tags, let tag = ids.first else {
            Issue.record("The graph has no tags.")
            return
        }
        let predicate =
            form == "IN"
            ? try FetchPredicate(format: "%@ IN tags", AttributeValue.objectID(tag))
            : try FetchPredicate(format: "tags CONTAINS %@", AttributeValue.objectID(tag))
        try compare(predicate, form, inSQL: true)
    }

    @Test(arguments: inMemory)
    func whatStaysWithTheEvaluatorGivesItsAnswer(_ format: String) throws {
        try compare(try FetchPredicate(format: format), format, inSQL: false)
    }
}
