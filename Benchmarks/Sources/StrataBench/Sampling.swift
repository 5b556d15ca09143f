/// The median, minimum and maximum of repeated measurements.
struct Sample: Sendable {
    var median: Double
    var min: Double
    var max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted.first ?? 0
        max = sorted.last ?? 0
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

/// Runs `workload` of `subject` once to warm up, then `repetitions` times; `nil` when the
/// subject has no such workload.
func sample(_ subject: any BenchSubject, _ workload: Workload, repetitions: Int) throws -> Sample? {
    guard try subject.time(workload) != nil else { return nil }
    return Sample(try (0..<repetitions).map { _ in try subject.time(workload)?.milliseconds ?? 0 })
}
