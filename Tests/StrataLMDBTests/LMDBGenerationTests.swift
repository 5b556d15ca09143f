import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// The LMDB store's query generations: liblmdb read transactions held while the views live,
/// kept across map growth and other processes' saves, within half the reader table.
@Suite struct LMDBGenerationTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private let players = StoreFetchRequest(entityName: "Player", resultType: .count)

    @Test func aViewKeepsItsStateWhileItsOwnProcessGrowsTheMap() throws {
        let store = try LMDBTestModel.open(directory.file("growth.lmdb"), settings: ["mapSize": "65536"])
        try LMDBTestModel.insertPlayers(100, into: store)
        let view = try #require(try store.openGeneration())
        let indexed = StoreFetchRequest(
            entityName: "Player", predicate: try FetchPredicate(format: "score == 5"), resultType: .count)
        try LMDBTestModel.insertPlayers(5_000, batch: 1_000, into: store)
        #expect(store.environment.mapSize > 65_536 * 4)
        #expect(try view.execute(players) == .count(100))
        #expect(try view.execute(indexed) == .count(1))
        #expect(try store.execute(players) == .count(5_100))
        #expect(try store.execute(indexed) == .count(51))
    }

    @Test func viewsTakeAtMostHalfTheReaderTable() throws {
        let store = try LMDBTestModel.open(directory.file("readers.lmdb"))
        try LMDBTestModel.insertPlayers(3, into: store)
        let limit = store.environment.maximumHeldReads
        #expect(limit == 63)
        var views = try (0..<limit).map { _ in try #require(try store.openGeneration()) }
        let error = #expect(throws: StoreError.self) { try store.openGeneration() }
        #expect(error?.code == .generationUnavailable)
        #expect(error?.message.contains("63 query generations") == true)
        #expect(try store.execute(players) == .count(3))
        views.removeLast()
        views.append(try #require(try store.openGeneration()))
        for view in views { #expect(try view.execute(players) == .count(3)) }
    }

    @Test func aViewDoesNotSeeWhatAnotherProcessSaves() throws {
        let url = directory.file("process.lmdb")
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.lmdb])
        let store = try coordinator.addStore(type: StoreType.lmdb.name, at: url)
        try ContentionModel.writeEntries(2, as: "parent", into: store)
        let entries = StoreFetchRequest(entityName: "Entry", resultType: .count)
        let view = try #require(try store.openGeneration())
        #expect(try BuiltProducts.run("LMDBReadWriteWorker", ["write", url.path, "5"]) == 0)
        #expect(try view.execute(entries) == .count(2))
        #expect(try store.execute(entries) == .count(7))
    }
}
