import Foundation
import StrataTestSupport
import Testing

/// The command line with PostgreSQL stores, named by their URLs, on the test server: files
/// move into PostgreSQL and back, inspect, dump and validate read them, and the conformance
/// command tests the store in a database it is given.
@Suite struct PostgresCommandTests {
    /// A store URL on the test server, in a new schema.
    static func newStoreURL() throws -> URL {
        try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("cli"))
    }

    @Test func aFileMovesIntoPostgreSQLAndBackWithTheSameObjectGraph() throws {
        let directory = try TemporaryDirectory()
        let source = try CommandStores.written(type: "SQLite", named: "guide.sqlite", in: directory)
        let server = try Self.newStoreURL().absoluteString
        let into = try StrataProcess.run(["convert", source.path, server])
        #expect(into.status == 0, "\(into.error)")
        #expect(into.output.contains("to the PostgreSQL store at"))
        #expect(into.output.contains("City: 3 objects"))

        let inspected = try StrataProcess.run(["inspect", server])
        #expect(inspected.status == 0, "\(inspected.error)")
        #expect(inspected.output.contains("Type: PostgreSQL"))
        #expect(inspected.output.contains("Format: Strata's PostgreSQL layout version 1"))
        let validated = try StrataProcess.run(["validate", server])
        #expect(validated.status == 0, "\(validated.error)")

        let back = directory.file("back.lmdb")
        let out = try StrataProcess.run(["convert", server, back.path])
        #expect(out.status == 0, "\(out.error)")
        let original = try StrataProcess.run(["dump", "--canonical", source.path])
        let inPostgres = try StrataProcess.run(["dump", "--canonical", server])
        let returned = try StrataProcess.run(["dump", "--canonical", back.path])
        #expect(inPostgres.status == 0, "\(inPostgres.error)")
        #expect(original.output == inPostgres.output)
        #expect(original.output == returned.output)
    }

    @Test func refusesATakenSchemaAndMismatchedTypes() throws {
        let directory = try TemporaryDirectory()
        let source = try CommandStores.written(type: "SQLite", named: "guide.sqlite", in: directory)
        let server = try Self.newStoreURL().absoluteString
        #expect(try StrataProcess.run(["convert", source.path, server]).status == 0)
        let taken = try StrataProcess.run(["convert", source.path, server])
        #expect(taken.status == 1)
        #expect(taken.error.contains("already holds a store"))

        let fileType = try StrataProcess.run([
            "convert", source.path, try Self.newStoreURL().absoluteString, "--to", "XML",
        ])
        #expect(fileType.status == 1)
        #expect(fileType.error.contains("give a path, not a URL"))
        let path = try StrataProcess.run(["convert", source.path, directory.file("copy").path, "--to", "PostgreSQL"])
        #expect(path.status == 1)
        #expect(path.error.contains("named by its URL"))
    }

    @Test func anEmptySchemaIsNoStoreAndPasswordsStayHidden() throws {
        var components = try #require(URLComponents(url: try Self.newStoreURL(), resolvingAgainstBaseURL: false))
        components.password = "hunter2secret"
        let url = try #require(components.url).absoluteString
        let outcome = try StrataProcess.run(["inspect", url])
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("There is no PostgreSQL store"))
        #expect(!outcome.error.contains("hunter2secret"))
        #expect(!outcome.output.contains("hunter2secret"))
    }

    /// The counts `strata conformance PostgreSQL --postgres … --json` prints with `arguments`.
    static func conformanceCounts(_ arguments: [String]) throws -> [String: Int] {
        var database = try #require(
            URLComponents(
                url: try PostgresTestServer.shared.get().storeURL(schema: "x"), resolvingAgainstBaseURL: false))
        database.queryItems = nil
        let outcome = try StrataProcess.run(
            ["conformance", "PostgreSQL", "--postgres", try #require(database.url).absoluteString, "--json"] + arguments
        )
        #expect(outcome.status == 0, "\(outcome.output) \(outcome.error)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        let store = try #require((document["stores"] as? [[String: Any]])?.first)
        #expect(store["type"] as? String == "PostgreSQL")
        return ["passed", "failed", "skipped"].reduce(into: [:]) { $0[$1] = store[$1] as? Int }
    }

    @Test func theConformanceCommandTestsTheStoreInTheGivenDatabase() throws {
        let basics = try Self.conformanceCounts(["--category", "A"])
        #expect(basics["failed"] == 0)
        #expect((basics["passed"] ?? 0) > 5)
        let durability = try Self.conformanceCounts(["--check", "M.killDuringSaves", "--durability-kills", "5"])
        #expect(durability == ["passed": 1, "failed": 0, "skipped": 0])

        let without = try StrataProcess.run(["conformance", "PostgreSQL"])
        #expect(without.status == 1)
        #expect(without.error.contains("needs --postgres"))
    }
}
