import Foundation

/// One run of every workload on every store, its raw floor and the peer.
struct BenchSuite {
    let count: Int
    let repetitions: Int
    /// Whether load-by-id, traverse, update and delete touch 10 000 × `count` / 100 000 objects
    /// rather than 10 000 (the `--quick` run).
    let scalesTouched: Bool
    /// The stores to measure, by name; every store when empty.
    let stores: [String]
    /// The workloads to run; every workload when empty.
    let workloads: [Workload]
    /// Where progress goes: standard error, so that `--json` leaves only JSON on standard output.
    let log: (String) -> Void

    func run() throws -> BenchReport {
        let start = ContinuousClock.now
        let log = { (line: String) in
            self.log(String(format: "%6.1f s  ", (ContinuousClock.now - start).milliseconds / 1000) + line)
        }
        let data = BenchData(count: count, scaled: scalesTouched)
        let records = data.records
        let model = try BenchModel.makeModel()
        log("Preparing stores of \(count) objects")
        let rawSQLite = try RawSQLite(data: data, records: records)
        let rawLMDB = try RawLMDB(data: data, records: records)
        let rawXML = try WholeFileFloor(store: "XML", format: RawXMLFormat(), data: data, records: records)
        let rawBinary = try WholeFileFloor(store: "Binary", format: RawBinaryFormat(), data: data, records: records)
        var floors: [String: (subject: any BenchSubject, folder: URL)] = [
            "SQLite": (rawSQLite, rawSQLite.full), "LMDB": (rawLMDB, rawLMDB.full),
            "XML": (rawXML, rawXML.full.deletingLastPathComponent()),
            "Binary": (rawBinary, rawBinary.full.deletingLastPathComponent()),
        ]
        floors["InMemory"] = (InMemoryFloor(data: data, records: records), rawBinary.scratch.url)
        var scratches = [rawSQLite.scratch, rawLMDB.scratch, rawXML.scratch, rawBinary.scratch]
        if measures("PostgreSQL") {
            log("Starting a PostgreSQL server for the PostgreSQL store and its floor")
            let rawPostgres = try RawPostgres(data: data, records: records)
            floors["PostgreSQL"] = (rawPostgres, rawPostgres.full)
            scratches.append(rawPostgres.scratch)
        }
        let conversions: [String: RawConversion] = [
            "SQLite": .sqliteToLMDB(rawSQLite, rawLMDB), "LMDB": .lmdbToBinary(rawLMDB, rawBinary),
        ]
        let peer = try GRDBPeer(data: data, records: records)
        var results: [BenchResult] = []
        for setup in StoreSetup.all where measures(setup.name) {
            let subject = try StrataSubject(setup, data: data, records: records, model: model)
            defer { subject.scratch.remove() }
            guard let floor = floors[setup.name] else { continue }
            let probes = StoreProbes(
                store: setup.name, subject: subject, rawFolder: floor.folder, repetitions: repetitions)
            for workload in Workload.allCases where workload != .memory && runs(workload) {
                log("\(setup.name) \(workload.rawValue)")
                let grdb =
                    setup.name == "SQLite" ? try sample(peer, workload.floorWorkload, repetitions: repetitions) : nil
                // The in-memory store has no file for a child process to fetch from: it is
                // measured in this process.
                if workload == .fetchAll, !setup.isInMemory {
                    results.append(try probes.fetchAll(grdb: grdb, grdbFolder: grdb == nil ? nil : peer.full))
                    continue
                }
                var ratioToUnobserved: (wall: Double, cpu: Double)?
                let measured: Sample
                if let unobserved = workload.unobservedWorkload {
                    guard
                        let paired = try samplePaired(subject, workload, against: unobserved, repetitions: repetitions)
                    else { continue }
                    (measured, ratioToUnobserved) = (paired.sample, (paired.wallRatio, paired.cpuRatio))
                } else {
                    guard let sampled = try sample(subject, workload, repetitions: repetitions) else { continue }
                    measured = sampled
                }
                let raw = try sample(
                    workload == .convert ? conversions[setup.name] ?? floor.subject : floor.subject,
                    workload.floorWorkload, repetitions: repetitions)
                results.append(
                    BenchResult(
                        store: setup.name, workload: workload.rawValue, medianMs: measured.median, minMs: measured.min,
                        maxMs: measured.max, ratioToRaw: raw.map { measured.median / $0.median },
                        ratioToGRDB: grdb.map { measured.median / $0.median }, peakRSSBytes: nil,
                        ratioToUnobserved: ratioToUnobserved?.wall, cpuRatioToUnobserved: ratioToUnobserved?.cpu))
            }
            guard runs(.memory), !setup.isInMemory else { continue }
            log("\(setup.name) memory")
            results.append(try probes.memory())
        }
        for scratch in scratches + [peer.scratch] { scratch.remove() }
        return BenchReport(
            n: count, touched: data.touchedIDs.count, traversedParents: data.traversedParents,
            machine: Machine.description,
            results: results)
    }

    private func runs(_ workload: Workload) -> Bool { workloads.isEmpty || workloads.contains(workload) }

    private func measures(_ store: String) -> Bool { stores.isEmpty || stores.contains(store) }
}
