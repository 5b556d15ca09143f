import Foundation
import Logging
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// A store created with a tiny map grows it as saves fill it; no save fails for want of room.
@Suite struct LMDBMapGrowthTests {
    /// 100,000 objects when the environment variable `STRATA_SOAK` is set (as `make soak`
    /// does), 10,000 otherwise.
    static var objectCount: Int {
        let soak = ProcessInfo.processInfo.environment["STRATA_SOAK"] ?? ""
        return soak.isEmpty || soak == "0" ? 10_000 : 100_000
    }

    @Test func aSixtyFourKilobyteMapGrowsToHoldEveryObject() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("growth.lmdb")
        let count = Self.objectCount
        do {
            let store = try LMDBTestModel.open(url, settings: ["mapSize": "65536"])
            #expect(store.environment.mapSize == 65_536)
            try LMDBTestModel.insertPlayers(count, modulo: 1_000, batch: 2_500, into: store)
            #expect(store.environment.mapSize > 65_536)
            #expect(try store.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(count))
        }
        let reopened = try LMDBTestModel.open(url)
        #expect(try reopened.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(count))
        #expect(try LMDBTestModel.ids(reopened, "score == 999").count == count / 1_000)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(size > 65_536 * 4)
    }

    @Test func aGrowingMapIsLoggedToTheCoordinatorsLogger() throws {
        let directory = try TemporaryDirectory()
        let log = CapturedLog()
        let url = directory.file("logged.lmdb")
        let store = try LMDBStoreFile.open(
            StoreOpenRequest(model: LMDBTestModel.model, url: url, logger: log.logger()),
            options: LMDBStoreOptions(mapSize: 65_536))
        try LMDBTestModel.insertPlayers(3_000, batch: 3_000, into: store)
        let grown = try #require(log.lines("LMDB map grown").last)
        #expect(grown.level == .notice && grown.metadata["store.url"] == url.path)
        #expect(grown.metadata["map.bytes"] == String(store.environment.mapSize))
    }

    @Test func oneSaveLargerThanTheMapGrowsItInOneGo() throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("single.lmdb"), settings: ["mapSize": "65536"])
        try LMDBTestModel.insertPlayers(3_000, batch: 3_000, into: store)
        #expect(try store.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(3_000))
    }
}
