import Foundation
import Strata
import StrataLMDB
import StrataSQLite
import StrataTestSupport
import StrataXML
import Testing

/// A worker saving across an SQLite, an LMDB and an XML store is killed at each step of the
/// save (`StripedSaveKills`): after reopening, every store holds the save or none does. 50
/// kills per step in `make test`, 1,000 in `make soak`.
@Suite struct StripedSaveKillTests {
    static let storeTypes: [StoreType] = [.sqlite, .lmdb, .xml]

    @Test(arguments: StripedSaveKills.steps)
    func aKillAtAnyStepLeavesAllOfTheSaveOrNone(_ step: String) throws {
        let folder = try TemporaryDirectory()
        let kills = StripedSaveKills.killsPerStep
        let report = try StripedSaveKills.run(
            step: step, kills: kills, folder: folder.url, worker: TwoWriterSoak.worker, storeTypes: Self.storeTypes)
        print("Striped save killed at \(step): \(report.kills) kills, \(report.problems.count) problems")
        #expect(report.problems == [])
        #expect(report.kills == kills)
    }

    /// The negative control: a worker that writes the stores one after another, killed between
    /// the first and the second, is caught leaving them apart.
    @Test func aSaveWrittenStoreByStoreIsCaught() throws {
        let folder = try TemporaryDirectory()
        let report = try StripedSaveKills.run(
            step: "committed0", kills: 2, folder: folder.url, worker: TwoWriterSoak.worker,
            storeTypes: Self.storeTypes, workerDefect: "saves-store-by-store")
        #expect(report.problems.contains { $0.contains("the Visit store holds") }, "\(report.problems)")
    }
}

/// Two processes saving across an SQLite and an LMDB store at once, killed and started again
/// at random (`StripedTwoWriterSoak`): every acknowledged save whole in both stores, none half.
/// Six seconds in `make test`, five minutes in `make soak`.
@Suite struct StripedTwoWriterSoakTests {
    @Test func twoProcessesSavingAcrossTheSameStoresLeaveNoSaveHalf() throws {
        let folder = try TemporaryDirectory()
        let seconds = StripedTwoWriterSoak.seconds
        let report = try StripedTwoWriterSoak.run(
            folder: folder.url, worker: TwoWriterSoak.worker, seconds: seconds, sqlite: .sqlite, lmdb: .lmdb)
        print(StripedTwoWriterSoak.summary(of: report, seconds: seconds))
        #expect(report.problems == [], "\(report.problems)")
        #expect(StripedTwoWriterSoak.writers.allSatisfy { report.acknowledgedSaves[$0, default: 0] > 0 }, "\(report)")
        #expect(report.kills > 0)
    }
}
