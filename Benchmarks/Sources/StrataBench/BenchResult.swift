/// One row of the report.
struct BenchResult: Encodable, Sendable {
    var store: String
    var workload: String
    var medianMs: Double
    var minMs: Double
    var maxMs: Double
    var ratioToRaw: Double?
    var ratioToGRDB: Double?
    var peakRSSBytes: Double?
    /// For SQLite's fetch-all, the peak resident size of GRDB's fetch of every record, measured
    /// as the materialised fetch's is.
    var grdbPeakRSSBytes: Double? = nil
    /// For an observed workload, the median ratio of its runs to the unobserved runs
    /// alternating with them (``samplePaired(_:_:against:repetitions:)``).
    var ratioToUnobserved: Double? = nil
    /// The same in the CPU time the runs used.
    var cpuRatioToUnobserved: Double? = nil

    private enum CodingKeys: String, CodingKey {
        case store, workload, medianMs, minMs, maxMs, ratioToRaw, ratioToGRDB, peakRSSBytes, grdbPeakRSSBytes,
            ratioToUnobserved, cpuRatioToUnobserved
    }

    // Written by hand so that missing ratios and sizes appear as `null` rather than vanish.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(store, forKey: .store)
        try container.encode(workload, forKey: .workload)
        try container.encode(medianMs, forKey: .medianMs)
        try container.encode(minMs, forKey: .minMs)
        try container.encode(maxMs, forKey: .maxMs)
        try container.encode(ratioToRaw, forKey: .ratioToRaw)
        try container.encode(ratioToGRDB, forKey: .ratioToGRDB)
        try container.encode(peakRSSBytes.map { Int($0) }, forKey: .peakRSSBytes)
        try container.encode(grdbPeakRSSBytes.map { Int($0) }, forKey: .grdbPeakRSSBytes)
        try container.encode(ratioToUnobserved, forKey: .ratioToUnobserved)
        try container.encode(cpuRatioToUnobserved, forKey: .cpuRatioToUnobserved)
    }
}

/// The whole report: `{"n": N, "touched": …, "traversedParents": …, "machine": "…", "results": […]}`.
struct BenchReport: Encodable, Sendable {
    var n: Int
    /// The objects load-by-id, update and delete touch.
    var touched: Int
    /// The parents traverse visits.
    var traversedParents: Int
    var machine: String
    var results: [BenchResult]
}
