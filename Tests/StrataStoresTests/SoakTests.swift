import Foundation
import Strata
import StrataLMDB
import StrataSQLite
import StrataTestSupport
import Testing

/// The stores several processes may open, with the file extension their soak stores take.
private let multiProcessStores: [(type: StoreType, pathExtension: String)] = [(.sqlite, "sqlite"), (.lmdb, "lmdb")]

/// Two processes write one store at once while the test reads it (`TwoWriterSoak`): no
/// acknowledged save lost, no update lost, no ID given twice, and every read view consistent.
/// Four seconds per store in `make test`, five minutes in `make soak`.
@Suite struct TwoWriterSoakTests {
    @Test(arguments: multiProcessStores.indices)
    func twoWritingProcessesLoseNothing(_ store: Int) throws {
        let (storeType, pathExtension) = multiProcessStores[store]
        let folder = try TemporaryDirectory()
        let seconds = TwoWriterSoak.seconds
        let report = try TwoWriterSoak.run(
            storeType: storeType, at: folder.file("soak.\(pathExtension)"), worker: TwoWriterSoak.worker,
            seconds: seconds)
        print(TwoWriterSoak.summary(of: report, storeName: storeType.name, seconds: seconds))
        #expect(report.problems == [])
        #expect(TwoWriterSoak.writers.allSatisfy { report.acknowledgedSaves[$0, default: 0] > 0 }, "\(report)")
        #expect(report.checksWhileWriting > 0)
    }

    /// The negative control: writers that acknowledge every fifth save without making it are
    /// caught losing entries and tally updates.
    @Test func writersSkippingSavesTheyAcknowledgeAreCaught() throws {
        let folder = try TemporaryDirectory()
        let report = try TwoWriterSoak.run(
            storeType: .sqlite, at: folder.file("soak.sqlite"), worker: TwoWriterSoak.worker, seconds: 2,
            workerDefect: "skips-every-fifth-save")
        #expect(report.problems.contains { $0.hasPrefix("Entries lost") }, "\(report.problems)")
        #expect(report.problems.contains { $0.hasPrefix("The tally holds") }, "\(report.problems)")
    }
}

/// A store of many objects read through batched fetches and saved in rounds, in a process of
/// its own (`MemorySoak`): resident memory must not grow across rounds. 20,000 objects in
/// `make test`, 1,000,000 in `make soak`.
@Suite struct MemorySoakTests {
    @Test(arguments: multiProcessStores.indices)
    func memoryStaysFlatAcrossRounds(_ store: Int) throws {
        let (storeType, pathExtension) = multiProcessStores[store]
        let folder = try TemporaryDirectory()
        let (objects, rounds) = MemorySoak.size
        let report = try MemorySoak.run(
            storeType: storeType, at: folder.file("memory.\(pathExtension)"), worker: TwoWriterSoak.worker,
            objects: objects, rounds: rounds)
        print(report.summary(storeName: storeType.name, objects: objects))
        #expect(report.problems == [])
    }

    /// The negative control: a worker that keeps each round's context, with its objects, is
    /// caught growing.
    @Test func aWorkerKeepingEveryContextIsCaught() throws {
        let folder = try TemporaryDirectory()
        let report = try MemorySoak.run(
            storeType: .sqlite, at: folder.file("memory.sqlite"), worker: TwoWriterSoak.worker, objects: 20_000,
            rounds: 6, workerDefect: "keeps-every-context")
        #expect(report.problems.contains { $0.hasPrefix("Resident memory grew") }, "\(report.problems)")
    }
}
