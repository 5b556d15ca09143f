import Foundation
import StrataSQLite
import StrataTestSupport
import Testing

@_spi(FaultInjection) @testable import Strata
@testable import StrataPostgres

/// Saves across a SQLite store and a PostgreSQL store: PostgreSQL prepares its part
/// (`PREPARE TRANSACTION`) before the save log decides the save, commits it after, and a kill
/// or a failure anywhere leaves the save whole in both stores or in neither once they are added
/// again (docs/STRIPED-SAVES.md).
@Suite struct PostgresStripedSaveTests {
    let folder: TemporaryDirectory
    let url: URL

    init() throws {
        folder = try TemporaryDirectory()
        url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("striped"))
    }

    func open(serverFirst: Bool = false, server: URL? = nil) throws -> PersistentStoreCoordinator {
        try FileAndServerStores.open(
            folder: folder.url, server: server ?? url, fileType: .sqlite, serverType: .postgres,
            serverFirst: serverFirst)
    }

    /// The names of the prepared transactions the PostgreSQL store of `coordinator` keeps.
    func prepared(in coordinator: PersistentStoreCoordinator) throws -> [String] {
        let store = try #require(coordinator.stores.first { $0.typeName == "PostgreSQL" } as? any PreparingStore)
        return try store.preparedChangeNames()
    }

    @Test func aSaveIsWholeInBothStoresAndLeavesNoPreparedTransaction() throws {
        let coordinator = try open()
        let steps = Locked<[PersistentStoreCoordinator.StripedSaveStep]>([])
        coordinator.probeStripedSaves { step in steps.withLock { $0.append(step) } }
        try FileAndServerStores.save("Lyon", in: coordinator)
        #expect(try FileAndServerStores.contents(of: coordinator) == (["Lyon"], ["Lyon"]))
        #expect(steps.withLock { $0 }.starts(with: [.checked, .prepared, .recordHalfWritten]))
        #expect(steps.withLock { $0 }.contains(.logged))
        #expect(try prepared(in: coordinator).isEmpty)
        for store in coordinator.stores {
            #expect(store.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(1))
        }
        // The log is emptied: both stores hold the save.
        let log = folder.file(".strata-save-log")
        #expect(
            (try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) == StripedSaveLog.headerSize)
    }

    @Test func aLogThatCannotBeWrittenRollsThePreparedTransactionBack() throws {
        let coordinator = try open()
        coordinator.failSaveLogWrites(inFolder: folder.url, [.record])
        let error = try #require(throws: StoreError.self) { try FileAndServerStores.save("Lyon", in: coordinator) }
        #expect(error.code == .io)
        #expect(try prepared(in: coordinator).isEmpty)
        #expect(try FileAndServerStores.contents(of: coordinator) == ([], []))
        coordinator.failSaveLogWrites(inFolder: folder.url, [])
        try FileAndServerStores.save("Nice", in: coordinator)
        #expect(try FileAndServerStores.contents(of: coordinator) == (["Nice"], ["Nice"]))
    }

    /// A worker saving across both stores is killed at `step`; adding the stores again, in
    /// either order, leaves the save whole in both (decided) or in neither (not decided), and
    /// no prepared transaction behind.
    @Test(arguments: ["prepared", "logged", "committed0", "committed1"], [false, true])
    func aKillAtAnyStepLeavesTheSaveWholeOrAbsent(step: String, serverFirst: Bool) throws {
        try FileAndServerStores.save("before", in: try open())
        let status = try BuiltProducts.run("PostgresStripedSaveWorker", [folder.url.path, url.absoluteString, step])
        #expect(status == SIGKILL)
        let coordinator = try open(serverFirst: serverFirst)
        #expect(try prepared(in: coordinator).isEmpty)
        let expected = FileAndServerStores.undecidedSteps.contains(step) ? ["before"] : ["before", "killed"]
        let contents = try FileAndServerStores.contents(of: coordinator)
        #expect(contents.cities == expected)
        #expect(contents.visits == expected)
        // Later saves go on, and reach both stores.
        try FileAndServerStores.save("after", in: coordinator)
        #expect(try FileAndServerStores.contents(of: coordinator).visits == (expected + ["after"]).sorted())
    }

    /// Two PostgreSQL stores of one database prepare their parts in one transaction; a kill
    /// once the save is decided leaves it to the next addition, which commits it and gives
    /// both stores their new metadata.
    @Test(arguments: ["prepared", "logged"])
    func storesOfOneDatabasePrepareOneTransaction(step: String) throws {
        let tips = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("tips"))
        let open = {
            try FileAndServerStores.open(
                folder: folder.url, server: url, tips: tips, fileType: .sqlite, serverType: .postgres)
        }
        try FileAndServerStores.save("before", in: try open())
        let status = try BuiltProducts.run(
            "PostgresStripedSaveWorker", [folder.url.path, url.absoluteString, step, tips.absoluteString])
        #expect(status == SIGKILL)
        let coordinator = try open()
        #expect(try prepared(in: coordinator).isEmpty)
        let expected = FileAndServerStores.undecidedSteps.contains(step) ? ["before"] : ["before", "killed"]
        #expect(try FileAndServerStores.contents(of: coordinator) == (expected, expected))
        #expect(try FileAndServerStores.tips(in: coordinator) == expected)
        try FileAndServerStores.save("after", in: coordinator)
        #expect(try FileAndServerStores.tips(in: coordinator) == (expected + ["after"]).sorted())
        for store in coordinator.stores {
            #expect(
                store.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey]
                    == .integer64(expected.count == 1 ? 2 : 3))
        }
    }

    @Test func aPostgreSQLStoreAddedWithoutTheFileStoreKeepsItsPreparedPartUntilItIsAdded() throws {
        try FileAndServerStores.save("before", in: try open())
        let status = try BuiltProducts.run(
            "PostgresStripedSaveWorker", [folder.url.path, url.absoluteString, "logged"])
        #expect(status == SIGKILL)
        let alone = try PersistentStoreCoordinator(model: FileAndServerStores.model, storeTypes: [.postgres])
        try alone.addStore(type: "PostgreSQL", configuration: "Visits", at: url)
        #expect(try prepared(in: alone).count == 1)
        let coordinator = try open()
        #expect(try prepared(in: coordinator).isEmpty)
        #expect(try FileAndServerStores.contents(of: coordinator) == (["before", "killed"], ["before", "killed"]))
    }

    @Test func aServerWithoutPreparedTransactionsIsRefusedNamingTheSettingBeforeAnythingIsWritten() throws {
        let server = try PostgresTestServer.makeServer(settings: ["max_prepared_transactions": "0"])
        let coordinator = try open(server: server.storeURL(schema: PostgresTestServer.uniqueSchema("noprepare")))
        let error = try #require(throws: StoreError.self) { try FileAndServerStores.save("Lyon", in: coordinator) }
        #expect(error.code == .unsupported)
        #expect(error.message.contains("max_prepared_transactions"))
        #expect(try FileAndServerStores.contents(of: coordinator) == ([], []))
    }

    /// A coordinator with the cities at `cities` and the visits at `visits`, both PostgreSQL
    /// stores.
    func postgresOnly(cities: URL, visits: URL) throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(model: FileAndServerStores.model, storeTypes: [.postgres])
        try coordinator.addStore(type: "PostgreSQL", configuration: "Cities", at: cities)
        try coordinator.addStore(type: "PostgreSQL", configuration: "Visits", at: visits)
        return coordinator
    }

    @Test func storesInSchemasOfOneDatabaseSaveInOneTransaction() throws {
        let server = try PostgresTestServer.shared.get()
        let coordinator = try postgresOnly(
            cities: url, visits: server.storeURL(schema: PostgresTestServer.uniqueSchema("striped")))
        try FileAndServerStores.save("Lyon", in: coordinator)
        #expect(try FileAndServerStores.contents(of: coordinator) == (["Lyon"], ["Lyon"]))
    }

    @Test func storesOnTwoServersWithoutAFileStoreAreRefusedBeforeAnythingIsWritten() throws {
        let other = try PostgresTestServer.makeServer()
        let coordinator = try postgresOnly(
            cities: url, visits: other.storeURL(schema: PostgresTestServer.uniqueSchema("striped")))
        let error = try #require(throws: StoreError.self) { try FileAndServerStores.save("Lyon", in: coordinator) }
        #expect(error.code == .unsupported)
        #expect(error.message.contains("share no transaction"))
        #expect(try FileAndServerStores.contents(of: coordinator) == ([], []))
    }
}
