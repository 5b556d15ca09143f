import Foundation
import Strata

/// A store of many objects opened, read through batched fetches and saved in rounds, in a
/// process of its own (`SoakWorker memory`), to watch its memory.
///
/// The worker fills the store with `objects` entries, then runs rounds: each opens the store
/// in a new coordinator, reads every entry through a fetch in batches of ``batchSize``, checks
/// that the entries the last round changed hold its mark, marks ``updatesPerRound`` entries
/// with its own, saves, resets the context and removes the store. After each round it prints
/// its resident memory. Memory must not grow: after the last round it may be at most
/// ``allowedGrowth`` above what it was after the second (the first warms caches up), or
/// ``allowedGrowthFloor`` above it when that is more: the allocator's arenas for the threads
/// that contexts run on take a few megabytes of their own, which is much of a small soak.
public enum MemorySoak {
    /// Entries saved at once while filling the store.
    public static let insertsPerSave = 10_000
    /// The fetch batch size of each round.
    public static let batchSize = 500
    /// Entries each round changes.
    public static let updatesPerRound = 1_000
    /// How much resident memory may grow from the second round to the last: 10 %.
    public static let allowedGrowth = 0.10
    /// How many bytes resident memory may grow from the second round to the last in any case.
    public static let allowedGrowthFloor = 8 * 1_048_576

    /// The size of a soak: 20,000 objects in 6 rounds, or 1,000,000 objects in 10 rounds when
    /// the environment variable `STRATA_SOAK` is set to anything but `0` or an empty string
    /// (`make soak`).
    public static var size: (objects: Int, rounds: Int) {
        let soak = ProcessInfo.processInfo.environment["STRATA_SOAK"] ?? ""
        return soak.isEmpty || soak == "0" ? (20_000, 6) : (1_000_000, 10)
    }

    /// What a memory soak saw.
    public struct Report: Sendable {
        /// Seconds the worker took to fill the store.
        public var fillSeconds = 0.0
        /// Resident bytes after each round.
        public var residentBytes: [Int] = []
        /// Seconds each round took.
        public var roundSeconds: [Double] = []
        /// What went wrong, empty when the soak passed.
        public var problems: [String] = []

        /// How much memory grew from the second round to the last, as a fraction.
        public var growth: Double {
            guard residentBytes.count >= 2, residentBytes[1] > 0 else { return 0 }
            return Double(residentBytes[residentBytes.count - 1]) / Double(residentBytes[1]) - 1
        }

        /// The report on one line, for the test log.
        public func summary(storeName: String, objects: Int) -> String {
            let megabytes = residentBytes.map { $0 / 1_048_576 }
            return "\(storeName) memory soak, \(objects) objects: filled in \(Int(fillSeconds)) s, resident MB "
                + "after each round \(megabytes), rounds of \(roundSeconds.map { Int($0.rounded()) }) s, growth "
                + "\(Int((growth * 100).rounded())) %, problems \(problems.count)"
        }
    }

    /// Runs the worker executable `worker` on a new store of `storeType` at `url` and reports;
    /// `workerDefect`, when given, follows the worker's other arguments.
    public static func run(
        storeType: StoreType, at url: URL, worker: URL, objects: Int, rounds: Int, workerDefect: String? = nil
    ) throws -> Report {
        let process = try SoakProcess(
            worker: worker,
            arguments: ["memory", storeType.name, url.path, "\(objects)", "\(rounds)"]
                + (workerDefect.map { [$0] } ?? []),
            named: "memory", outputBeside: url)
        let ending = process.finish()
        var report = Report()
        for line in ending.lines {
            let fields = line.split(separator: " ")
            switch fields.first {
            case "filled": report.fillSeconds = Double(fields.last ?? "") ?? 0
            case "round" where fields.count == 4:
                report.residentBytes.append(Int(fields[2]) ?? 0)
                report.roundSeconds.append(Double(fields[3]) ?? 0)
            default: report.problems.append("The worker wrote '\(line)'.")
            }
        }
        if ending.status != 0 { report.problems.append("The worker ended with \(ending.status): \(ending.errors)") }
        if report.residentBytes.count != rounds {
            report.problems.append("The worker reported \(report.residentBytes.count) of \(rounds) rounds.")
        } else if let last = report.residentBytes.last,
            last - report.residentBytes[1]
                > max(Int(Double(report.residentBytes[1]) * allowedGrowth), allowedGrowthFloor)
        {
            report.problems.append(
                "Resident memory grew \(Int((report.growth * 100).rounded())) % from the second round to the last: "
                    + "\(report.residentBytes).")
        }
        return report
    }

    /// The process's resident memory in bytes (`/proc/self/statm`); 0 where that is not known.
    public static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
