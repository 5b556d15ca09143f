import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// A PostgreSQL store's query generations beyond the conformance suite's `Q` checks: each view
/// holds a server connection of its own, so views are bounded in number and age, and a view
/// whose connection is lost fails rather than read a newer state.
@Suite struct PostgresGenerationTests {
    /// A store of `ContentionModel` with two entries, in a schema of its own whose
    /// connections carry `applicationName`.
    private func store(_ applicationName: String, settings: [String: String] = [:]) throws -> any IncrementalStore {
        let url = PostgresTestServer.storeURL(
            schema: PostgresTestServer.uniqueSchema("generations"), applicationName: applicationName)
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.postgres])
        let store = try coordinator.addStore(
            type: StoreType.postgres.name, at: url, options: StoreOptions(settings: settings))
        try ContentionModel.writeEntries(2, as: "first", into: store)
        return store
    }

    private func count(_ reader: any StoreReading) throws -> Int? {
        guard case .count(let count) = try reader.execute(StoreFetchRequest(entityName: "Entry", resultType: .count))
        else { return nil }
        return count
    }

    @Test func aViewKeepsReadingItsSnapshotWhileTheStoreMovesOn() throws {
        let store = try store("generation-snapshot")
        let view = try #require(try store.openGeneration())
        try ContentionModel.writeEntries(3, as: "second", into: store)
        #expect(try count(view) == 2)
        #expect(try count(store) == 5)
    }

    @Test func viewsBeyondTheLimitAreRefusedNamingTheSetting() throws {
        let store = try store("generation-limit", settings: ["maximumGenerations": "2"])
        var views = [try store.openGeneration(), try store.openGeneration()]
        let error = #expect(throws: StoreError.self) { _ = try store.openGeneration() }
        #expect(error?.code == .generationUnavailable)
        #expect(error?.message.contains("maximumGenerations") == true)
        views.removeAll()
        #expect(try store.openGeneration() != nil, "Released views make room.")
    }

    @Test(arguments: [["maximumGenerations": "0"], ["maximumGenerations": "many"], ["maxConnections": "0"]])
    func aBoundThatIsNoWholeNumberAboveZeroIsRefusedNamingTheSetting(_ settings: [String: String]) throws {
        let error = #expect(throws: StoreError.self) { _ = try PostgresStoreSettings(StoreOptions(settings: settings)) }
        #expect(error?.code == .invalidOption)
        #expect(settings.keys.allSatisfy { error?.message.contains($0) == true }, "\(error?.message ?? "")")
    }

    @Test func aViewOlderThanTheMaximumAgeFailsInsteadOfReadingOn() throws {
        let store = try store("generation-age", settings: ["maximumGenerationAge": "1000"])
        let view = try #require(try store.openGeneration())
        #expect(try count(view) == 2)
        Thread.sleep(forTimeInterval: 1.2)
        let error = #expect(throws: StoreError.self) { _ = try count(view) }
        #expect(error?.code == .generationUnavailable)
        #expect(error?.message.contains("maximum generation age") == true)
    }

    @Test func aViewWhoseConnectionIsLostFailsInsteadOfReadingOn() throws {
        let name = "generation-lost-\(UUID().uuidString.prefix(8))"
        let store = try store(name)
        let view = try #require(try store.openGeneration())
        #expect(try count(view) == 2)
        let server = try PostgresTestServer.shared.get()
        let admin = try PostgresConnection(
            conninfo: try PostgresLocation(url: server.storeURL(schema: "public")).conninfo, serverName: "test")
        let ended = try admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1::text "
                + "AND state = 'idle in transaction'", [.text(name)])
        #expect(ended.rowCount == 1)
        let error = #expect(throws: StoreError.self) { _ = try count(view) }
        #expect(error?.code == .generationUnavailable)
        #expect(error?.message.contains("lost its connection") == true)
        #expect(try count(store) == 2, "The store itself reads on.")
    }

    @Test func closingTheStoreReleasesItsViews() throws {
        let store = try store("generation-close")
        let view = try #require(try store.openGeneration())
        store.close()
        let error = #expect(throws: StoreError.self) { _ = try count(view) }
        #expect(error?.code == .generationUnavailable)
    }
}
