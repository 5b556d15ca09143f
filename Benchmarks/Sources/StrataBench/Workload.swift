import Foundation

/// The workloads of the benchmark, named as in the report.
enum Workload: String, CaseIterable, Sendable {
    case insert
    case fetchAll = "fetch-all"
    case fetchIndexed = "fetch-indexed"
    /// `fetch-indexed` with a typed request (`#Predicate`, translated when the request is made,
    /// inside the timing), against the same floors.
    case fetchIndexedTyped = "fetch-indexed-typed"
    /// `fetch-indexed-typed` reading every attribute through the class's typed properties
    /// (`@Managed`), which Observation tracks, instead of by key; against the same floors.
    case readTyped = "read-typed"
    case loadByID = "load-by-id"
    case traverse
    case update
    case delete
    case openCount = "open-count"
    case convert
    /// A lightweight migration to the next model version (an attribute added, one renamed):
    /// SQLite and LMDB, against a raw `ALTER TABLE` + `UPDATE` and a raw rewrite.
    case migrate
    case memory
    /// `insert`, `update` and `delete` on a store that records its persistent history (SQLite, LMDB),
    /// against the same floor as without it, to compare with the rows beside them.
    case insertHistory = "insert-history"
    case updateHistory = "update-history"
    case deleteHistory = "delete-history"
    /// A batch update setting one attribute of all N objects (`BatchUpdateRequest`), against the
    /// same `UPDATE` by hand (SQLite).
    case batchUpdate = "batch-update"
    /// A batch deletion of all N objects (`BatchDeleteRequest`), against the same `DELETE` by hand
    /// (SQLite).
    case batchDelete = "batch-delete"
    /// A batch update computing one attribute of all N objects from two (`score * 2 + number`),
    /// against the same `UPDATE` by hand (SQLite).
    case batchCompute = "batch-compute"
    /// ``StripedSaves/count`` saves of two new objects each into the store alone, against as many
    /// transactions of two rows by hand (SQLite, LMDB): what a small save costs.
    case saveSmall = "save-small"
    /// The same saves with one object in the store and one in a second store of the other type
    /// (LMDB beside SQLite, SQLite beside LMDB), all or nothing across both
    /// (docs/STRIPED-SAVES.md), against the `save-small` floor.
    case saveStriped = "save-striped"
    /// `fetch-indexed` and `save-small` with the coordinator watched by `MetricsAndTracing` and
    /// no metrics or tracing backend bootstrapped: what observing costs an application that
    /// does not collect. Their runs alternate with the unobserved workload's, and the report
    /// gives the median ratio of each pair.
    case fetchIndexedObserved = "fetch-indexed-observed"
    case saveSmallObserved = "save-small-observed"

    /// What floors and the peer measure for this workload: the same work without persistent
    /// history, and without a typed request.
    var floorWorkload: Workload {
        switch self {
        case .insertHistory: .insert
        case .updateHistory: .update
        case .deleteHistory: .delete
        case .fetchIndexedTyped, .readTyped: .fetchIndexed
        case .saveStriped: .saveSmall
        default: unobservedWorkload ?? self
        }
    }

    /// The same workload without an observer, for an observed one.
    var unobservedWorkload: Workload? {
        switch self {
        case .fetchIndexedObserved: .fetchIndexed
        case .saveSmallObserved: .saveSmall
        default: nil
        }
    }

    /// Whether the store records its persistent history in this workload.
    var tracksHistory: Bool { [.insertHistory, .updateHistory, .deleteHistory].contains(self) }

    /// How many objects one run of the workload handles in `report`, for its time per object;
    /// `nil` for `open-count`, whose cost is the opening, not the objects.
    func objectCount(in report: BenchReport) -> Int? {
        switch self {
        case .insert, .insertHistory, .fetchAll, .convert, .migrate, .memory, .batchUpdate, .batchDelete,
            .batchCompute:
            report.n
        case .fetchIndexed, .fetchIndexedTyped, .readTyped, .fetchIndexedObserved:
            Int(BenchData(count: report.n).indexedBound)
        case .loadByID, .update, .delete, .updateHistory, .deleteHistory: report.touched
        case .traverse: report.traversedParents * (BenchData.childrenPerParent + 1)
        case .saveSmall, .saveStriped, .saveSmallObserved: StripedSaves.count(report.n) * 2
        case .openCount: nil
        }
    }
}

/// Something measured: a Strata store, a raw floor or the peer. Each call of ``time(_:)``
/// prepares what it needs untimed, then runs `workload` once and returns the time it took.
protocol BenchSubject {
    /// The store's name in the report ("SQLite", "LMDB", "XML", "Binary").
    var store: String { get }
    /// The subject's measured time of one run of `workload`, or `nil` when it has no such workload.
    func time(_ workload: Workload) throws -> Duration?
}

/// Runs `body` and returns how long it took.
func clock(_ body: () throws -> Void) rethrows -> Duration {
    let clock = ContinuousClock()
    let cpuStart = processCPUTime()
    let start = clock.now
    try body()
    let elapsed = clock.now - start
    lastClockedCPUTime = processCPUTime() - cpuStart
    return elapsed
}

/// The CPU time the process spent in the last ``clock(_:)`` call's body: its work without the
/// waits (for the disk to flush, say) that make the wall time of small saves vary from run to
/// run.
// Safe: the benchmark times one workload at a time, on one thread.
nonisolated(unsafe) private(set) var lastClockedCPUTime = Duration.zero

/// The CPU time the process has used so far.
private func processCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

/// Keeps `value` alive and observed, so the optimiser cannot drop the work that made it.
@inline(never) func consume<T>(_ value: T) { withExtendedLifetime(value) {} }
