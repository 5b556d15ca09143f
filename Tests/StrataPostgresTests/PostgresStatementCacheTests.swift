import Foundation
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// Statements run again are prepared once and run prepared; the least recently used leave
/// when the cache is full; a statement with other parameter types is another statement.
@Suite struct PostgresStatementCacheTests {
    typealias Key = PostgresStatementCache.Key

    @Test func aStatementIsPreparedTheSecondTimeAndRunPreparedAfter() {
        var cache = PostgresStatementCache()
        let key = Key(sql: "SELECT $1", types: [20])
        #expect(cache.plan(for: key) == .runUnprepared)
        guard case .prepare(let name, nil) = cache.plan(for: key) else {
            Issue.record("The second run does not prepare the statement.")
            return
        }
        cache.didPrepare(key, name: name)
        #expect(cache.plan(for: key) == .run(name: name))
        #expect(cache.plan(for: Key(sql: "SELECT $1", types: [25])) == .runUnprepared)
    }

    @Test func aLongStatementIsNeverPreparedNorRemembered() {
        var cache = PostgresStatementCache()
        let long = Key(sql: "SELECT " + String(repeating: "1, ", count: 2_000) + "1", types: [])
        for _ in 0..<3 { #expect(cache.plan(for: long) == .runUnprepared) }
        let short = Key(sql: "SELECT 1", types: [])
        #expect(cache.plan(for: short) == .runUnprepared)
        guard case .prepare = cache.plan(for: short) else {
            Issue.record("A short statement run twice is prepared.")
            return
        }
    }

    @Test func theLeastRecentlyUsedStatementLeavesWhenTheCacheIsFull() {
        var cache = PostgresStatementCache()
        var names: [Int: String] = [:]
        for number in 0..<PostgresStatementCache.capacity {
            let key = Key(sql: "SELECT \(number)", types: [])
            _ = cache.plan(for: key)
            guard case .prepare(let name, nil) = cache.plan(for: key) else {
                Issue.record("Statement \(number) was not prepared on its second run.")
                return
            }
            cache.didPrepare(key, name: name)
            names[number] = name
        }
        #expect(cache.plan(for: Key(sql: "SELECT 0", types: [])) == .run(name: names[0]!))
        let newcomer = Key(sql: "SELECT 'new'", types: [])
        _ = cache.plan(for: newcomer)
        #expect(
            cache.plan(for: newcomer)
                == .prepare(name: "strata_\(PostgresStatementCache.capacity + 1)", evicting: names[1]))
    }

    /// Statements run on a server connection: prepared ones give the same rows, a statement
    /// prepared inside a rolled-back transaction still runs, and more statements than the
    /// cache holds deallocate the oldest without an error.
    @Test func preparedStatementsRunOnTheServer() throws {
        let server = try PostgresTestServer.shared.get()
        let connection = try PostgresConnection(
            conninfo: try PostgresLocation(url: server.storeURL(schema: "public")).conninfo, serverName: "test")
        for round in 1...3 {
            let rows = try connection.execute("SELECT $1::int8 + 1", [.bigint(41)])
            #expect(rows.int64(0, 0) == 42, "round \(round)")
        }
        #expect(try connection.execute("SELECT $1::int8 IS NULL", [.null]).value(0, 0) == .boolean(true))
        struct Rollback: Error {}
        for _ in 1...2 {
            _ = try? connection.transaction { () throws -> Void in
                _ = try connection.execute("SELECT $1::text || 'b'", [.text("a")])
                throw Rollback()
            }
        }
        #expect(try connection.execute("SELECT $1::text || 'b'", [.text("a")]).value(0, 0) == .text("ab"))
        for number in 0...(PostgresStatementCache.capacity + 10) {
            for _ in 1...2 {
                let rows = try connection.execute("SELECT $1::int8 * \(number)", [.bigint(2)])
                #expect(rows.int64(0, 0) == Int64(2 * number))
            }
        }
        let count = try connection.execute("SELECT count(*) FROM pg_prepared_statements")
        #expect(count.int64(0, 0) == Int64(PostgresStatementCache.capacity))
    }
}
