import Foundation

/// The rows of one store measured in child processes (see ``MemoryProbe``): `fetch-all`, whose
/// time and peak come from the same materialised fetches, and `memory`, the batched fetch.
/// The raw floor's reading of every item, the denominator of both rows, is probed once.
final class StoreProbes {
    let store: String
    let subject: StrataSubject
    let rawFolder: URL
    let repetitions: Int
    private var rawProbe: (sample: Sample, peak: Double)?

    init(store: String, subject: StrataSubject, rawFolder: URL, repetitions: Int) {
        self.store = store
        self.subject = subject
        self.rawFolder = rawFolder
        self.repetitions = repetitions
    }

    /// The fetch-all row: the materialised fetch's times and peak, its ratio to the raw floor's
    /// reading of every item, and to `grdb`'s median when there is one; with `grdbFolder`, the
    /// peer's database, the peak of GRDB's fetch of every record too.
    func fetchAll(grdb: Sample?, grdbFolder: URL?) throws -> BenchResult {
        let (full, fullPeak) = try MemoryProbe.measure(
            store: store, kind: .materialised, folder: subject.full, repetitions: repetitions)
        let raw = try self.raw()
        let grdbPeak = try grdbFolder.map { folder in
            try MemoryProbe.measure(store: store, kind: .grdb, folder: folder, repetitions: repetitions).1
        }
        return BenchResult(
            store: store, workload: Workload.fetchAll.rawValue, medianMs: full.median, minMs: full.min,
            maxMs: full.max, ratioToRaw: full.median / raw.sample.median,
            ratioToGRDB: grdb.map { full.median / $0.median },
            peakRSSBytes: fullPeak, grdbPeakRSSBytes: grdbPeak)
    }

    /// The memory row: the batched fetch's times and peak, and its peak's ratio to the raw floor's.
    func memory() throws -> BenchResult {
        let (batched, batchedPeak) = try MemoryProbe.measure(
            store: store, kind: .batched, folder: subject.full, repetitions: repetitions)
        return BenchResult(
            store: store, workload: Workload.memory.rawValue, medianMs: batched.median, minMs: batched.min,
            maxMs: batched.max, ratioToRaw: batchedPeak / (try raw().peak), ratioToGRDB: nil, peakRSSBytes: batchedPeak)
    }

    private func raw() throws -> (sample: Sample, peak: Double) {
        if let rawProbe { return rawProbe }
        let probe = try MemoryProbe.measure(store: store, kind: .raw, folder: rawFolder, repetitions: repetitions)
        rawProbe = (probe.0, probe.1)
        return (probe.0, probe.1)
    }
}
