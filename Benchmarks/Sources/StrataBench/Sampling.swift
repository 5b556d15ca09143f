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

/// Runs `workload` and `baseline` of `subject` in pairs, after one warm-up of each,
/// `repetitions` pairs (at least 16), and returns the sample of `workload` with the medians of
/// the ratios of its run to the `baseline` run of each pair, in wall time and in CPU time
/// (``lastClockedCPUTime``): a cost too small to see between two rows measured minutes apart
/// shows there, and in CPU time without the noise of waits on the disk. Every other pair runs
/// `workload` first, so that what running second costs or saves falls on both alike. `nil` when
/// the subject has no such workload.
func samplePaired(
    _ subject: any BenchSubject, _ workload: Workload, against baseline: Workload, repetitions: Int
) throws -> (sample: Sample, wallRatio: Double, cpuRatio: Double)? {
    guard try subject.time(baseline) != nil, try subject.time(workload) != nil else { return nil }
    var times: [Double] = []
    var wallRatios: [Double] = []
    var cpuRatios: [Double] = []
    for pair in 0..<max(repetitions, 16) {
        let measuredFirst = !pair.isMultiple(of: 2)
        var wall: [Workload: Double] = [:]
        var cpu: [Workload: Double] = [:]
        for timed in measuredFirst ? [workload, baseline] : [baseline, workload] {
            wall[timed] = try subject.time(timed)?.milliseconds ?? 0
            cpu[timed] = lastClockedCPUTime.milliseconds
        }
        times.append(wall[workload, default: 0])
        wallRatios.append(wall[workload, default: 0] / wall[baseline, default: 1])
        cpuRatios.append(cpu[workload, default: 0] / cpu[baseline, default: 1])
    }
    return (Sample(times), Sample(wallRatios).median, Sample(cpuRatios).median)
}
