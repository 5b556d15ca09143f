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

    /// Kills a worker saving across the stores at `step`, again and again (50 times, 1 000 under
    /// `make soak`, in one folder and schema, so that recoveries follow recoveries), and after
    /// each kill adds the stores again with `open(kill)`: every save is whole in every store
    /// (decided) or in none (not decided), and no prepared transaction is left. Returns the
    /// coordinator of the last addition and the names it holds.
    func kill(
        at step: String, tips: URL? = nil, open: (Int) throws -> PersistentStoreCoordinator
    ) throws -> (coordinator: PersistentStoreCoordinator, names: [String]) {
        try FileAndServerStores.save("before", in: try open(0))
        var expected = ["before"]
        var coordinator = try open(0)
        for kill in 0..<StripedSaveKills.killsPerStep {
            let name = "killed\(kill)"
            let status = try BuiltProducts.run(
                "PostgresStripedSaveWorker",
                [folder.url.path, url.absoluteString, step, name] + (tips.map { [$0.absoluteString] } ?? []))
            try #require(status == SIGKILL, "kill \(kill) at \(step): the worker ended with \(status)")
            coordinator = try open(kill)
            try #require(try prepared(in: coordinator).isEmpty, "kill \(kill) at \(step)")
            if !FileAndServerStores.undecidedSteps.contains(step) { expected = (expected + [name]).sorted() }
            let contents = try FileAndServerStores.contents(of: coordinator)
            try #require(
                contents.cities == expected && contents.visits == expected, "kill \(kill) at \(step): \(contents)")
        }
        return (coordinator, expected)
    }

    /// A save across both stores killed at `step`; adding the stores again, SQLite first after
    /// one kill and PostgreSQL first after the next, leaves the save whole in both or in
    /// neither. Later saves go on, and reach both stores.
    @Test(arguments: ["prepared", "logged", "committed0", "committed1"])
    func killsAtAStepLeaveEachSaveWholeOrAbsent(step: String) throws {
        let (coordinator, names) = try kill(at: step) { kill in try open(serverFirst: kill.isMultiple(of: 2)) }
        try FileAndServerStores.save("after", in: coordinator)
        #expect(try FileAndServerStores.contents(of: coordinator).visits == (names + ["after"]).sorted())
    }

    /// Two PostgreSQL stores of one database prepare their parts in one transaction; a kill
    /// once the save is decided leaves it to the next addition, which commits it and gives
    /// both stores their new metadata.
    @Test(arguments: ["prepared", "logged"])
    func storesOfOneDatabasePrepareOneTransaction(step: String) throws {
        let tips = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("tips"))
        let (coordinator, names) = try kill(at: step, tips: tips) { _ in
            try FileAndServerStores.open(
                folder: folder.url, server: url, tips: tips, fileType: .sqlite, serverType: .postgres)
        }
        #expect(try FileAndServerStores.tips(in: coordinator) == names)
        try FileAndServerStores.save("after", in: coordinator)
        #expect(try FileAndServerStores.tips(in: coordinator) == (names + ["after"]).sorted())
        for store in coordinator.stores {
            #expect(
                store.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(Int64(names.count + 1))
            )
        }
    }

    @Test func aPostgreSQLStoreAddedWithoutTheFileStoreKeepsItsPreparedPartUntilItIsAdded() throws {
        try FileAndServerStores.save("before", in: try open())
        let status = try BuiltProducts.run(
            "PostgresStripedSaveWorker", [folder.url.path, url.absoluteString, "logged", "killed"])
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

    /// Also when their URLs name different applications: `application_name` labels the
    /// connections, it does not change the database.
    @Test(arguments: [nil, "visits"])
    func storesInSchemasOfOneDatabaseSaveInOneTransaction(applicationName: String?) throws {
        let server = try PostgresTestServer.shared.get()
        let schema = PostgresTestServer.uniqueSchema("striped")
        let coordinator = try postgresOnly(
            cities: url, visits: server.storeURL(schema: schema, applicationName: applicationName))
        try FileAndServerStores.save("Lyon", in: coordinator)
        #expect(try FileAndServerStores.contents(of: coordinator) == (["Lyon"], ["Lyon"]))
    }

    @Test func storesOnTwoServersWithoutAFileStoreAreRefusedBeforeAnythingIsWritten() throws {
        let other = try PostgresTestServer.makeServer()
        let visits = other.storeURL(schema: PostgresTestServer.uniqueSchema("striped"))
        let coordinator = try postgresOnly(cities: url, visits: visits)
        let error = try #require(throws: StoreError.self) { try FileAndServerStores.save("Lyon", in: coordinator) }
        #expect(error.code == .unsupported)
        #expect(error.message.contains("share no transaction"))
        #expect(error.message.contains("'\(visits.absoluteString)'"), "The message names each store by its URL.")
        #expect(try FileAndServerStores.contents(of: coordinator) == ([], []))
    }
}
