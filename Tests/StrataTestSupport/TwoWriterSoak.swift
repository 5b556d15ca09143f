import Foundation
import Strata

/// Two processes writing one store for a set time while this process checks what they wrote:
/// the soak of stores that several processes may open (`multiProcessAccess`).
///
/// Each writer (`SoakWorker write`) saves in a loop, through a context: every save inserts an
/// `Entry` tagged with the writer and numbered by it, adds one to the shared `Tally`'s
/// `inserted`, and every fourth save also deletes one of the writer's live entries and adds
/// one to `deleted`. Both writers update the one `Tally` in every save, so their saves conflict
/// and are retried. A writer prints `ack <serial> <deleted serial or -1>` after each save that
/// returned, and `done <saves> <conflicts>` at the end.
///
/// While they write, the checker reads the store through read views of one committed state
/// each (``IncrementalStore/openGeneration()``): the live entries must number
/// `inserted - deleted`, with no `(writer, serial)` twice. At the end, the store must hold
/// exactly the entries acknowledged inserted and not acknowledged deleted, under distinct
/// object IDs; the tally must count every acknowledged insert and deletion, and its version
/// must be one more than the number of acknowledged saves: no update lost.
public enum TwoWriterSoak {
    /// `Entry` (`writer`, `serial`) and `Tally` (`inserted`, `deleted`).
    public static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Entry") {
                AttributeDescription("writer", .string)
                AttributeDescription("serial", .integer64)
            }
            EntityDescription("Tally") {
                AttributeDescription("inserted", .integer64)
                AttributeDescription("deleted", .integer64)
            }
        }
        try! model.freeze()  // A fixed, valid model: freezing cannot fail.
        return model
    }()

    /// What a soak saw.
    public struct Report: Sendable {
        /// Saves each writer acknowledged.
        public var acknowledgedSaves: [String: Int] = [:]
        /// Saves each writer retried after a conflict.
        public var conflicts: [String: Int] = [:]
        /// Read views checked while the writers wrote.
        public var checksWhileWriting = 0
        /// Live entries at the end.
        public var liveEntries = 0
        /// Every invariant found broken, empty when the soak passed.
        public var problems: [String] = []
    }

    /// The two writers' names.
    public static let writers = ["left", "right"]

    /// How long the writers write, in seconds: 4, or 300 when the environment variable
    /// `STRATA_SOAK` is set to anything but `0` or an empty string (`make soak`).
    public static var seconds: Double {
        let soak = ProcessInfo.processInfo.environment["STRATA_SOAK"] ?? ""
        return soak.isEmpty || soak == "0" ? 4 : 300
    }

    /// The soak's writer executable, built beside the test runner.
    public static var worker: URL { BuiltProducts.executable("SoakWorker") }

    /// What `report` says, on one line, for the test log.
    public static func summary(of report: Report, storeName: String, seconds: Double) -> String {
        "\(storeName) soak, \(Int(seconds)) s: saves \(report.acknowledgedSaves), conflicts retried "
            + "\(report.conflicts), \(report.checksWhileWriting) read views checked while writing, "
            + "\(report.liveEntries) entries at the end, problems \(report.problems.count)"
    }

    /// Creates the store of `storeType` at `url` with its `Tally`, runs the worker executable
    /// `worker` twice at once (`<worker> <type> <store> <writer> <seconds> <seed>`, followed by
    /// `workerDefect` when given) for `seconds`, checks the store while they write and after, and
    /// reports.
    public static func run(
        storeType: StoreType, at url: URL, worker: URL, seconds: Double, workerDefect: String? = nil
    ) throws -> Report {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [storeType])
        let store = try coordinator.addStore(type: storeType.name, at: url)
        defer { try? coordinator.remove(store) }
        let tallyID = try store.permanentIDs(forEntities: ["Tally"])[0]
        try store.save(
            StoreChangeSet(inserted: [
                .init(
                    objectID: tallyID, values: ["inserted": .integer64(0), "deleted": .integer64(0)], expectedVersion: 0
                )
            ]))
        let processes = try writers.enumerated().map { index, writer in
            try SoakProcess(
                worker: worker,
                arguments: ["write", storeType.name, url.path, writer, "\(seconds)", "\(index + 1)"]
                    + (workerDefect.map { [$0] } ?? []),
                named: writer, outputBeside: url)
        }
        var report = Report()
        while processes.contains(where: \.isRunning) {
            report.problems += try checkReadView(of: store, tally: tallyID)
            report.checksWhileWriting += 1
            usleep(20_000)
        }
        var live: Set<EntryKey> = []
        var inserted: Int64 = 0
        var deleted: Int64 = 0
        for (writer, process) in zip(writers, processes) {
            let ending = process.finish()
            guard ending.status == 0, let done = ending.lines.last, done.hasPrefix("done ") else {
                report.problems.append("Writer \(writer) ended with status \(ending.status): \(ending.errors)")
                continue
            }
            let counts = done.split(separator: " ").dropFirst().compactMap { Int($0) }
            report.conflicts[writer] = counts.last ?? 0
            for line in ending.lines where line.hasPrefix("ack ") {
                let fields = line.split(separator: " ").compactMap { Int64($0) }
                guard fields.count == 2 else {
                    report.problems.append("Writer \(writer) wrote '\(line)'.")
                    continue
                }
                live.insert(EntryKey(writer: writer, serial: fields[0]))
                inserted += 1
                if fields[1] >= 0 {
                    live.remove(EntryKey(writer: writer, serial: fields[1]))
                    deleted += 1
                }
                report.acknowledgedSaves[writer, default: 0] += 1
            }
        }
        let saves = report.acknowledgedSaves.values.reduce(0, +)
        let entries = try entries(in: store)
        report.liveEntries = entries.count
        if Set(entries.map(\.objectID)).count != entries.count {
            report.problems.append("\(entries.count) entries have \(Set(entries.map(\.objectID)).count) distinct IDs.")
        }
        let stored = Set(entries.map(\.key))
        if stored.count != entries.count { report.problems.append("An entry is stored twice.") }
        if stored != live {
            report.problems.append(
                "Entries lost: \(live.subtracting(stored).sorted().prefix(10)); entries not acknowledged or "
                    + "deleted: \(stored.subtracting(live).sorted().prefix(10)).")
        }
        let tally = try store.snapshot(for: tallyID)
        let expected = (inserted: inserted, deleted: deleted, version: Int64(saves + 1))
        let found = (
            inserted: tally?.values["inserted"]?.get(Int64.self), deleted: tally?.values["deleted"]?.get(Int64.self),
            version: tally?.version
        )
        if found.inserted != expected.inserted || found.deleted != expected.deleted || found.version != expected.version
        {
            report.problems.append(
                "The tally holds \(found) after \(saves) acknowledged saves, \(inserted) inserts and "
                    + "\(deleted) deletions: an update was lost or counted twice.")
        }
        return report
    }

    /// The problems of one read view of `store`.
    private static func checkReadView(of store: any IncrementalStore, tally: ObjectID) throws -> [String] {
        guard let view = try store.openGeneration() else { return ["The store opens no read view."] }
        guard case .snapshots(let snapshots) = try view.execute(StoreFetchRequest(entityName: "Entry")),
            let tally = try view.snapshot(for: tally),
            let inserted = tally.values["inserted"]?.get(Int64.self),
            let deleted = tally.values["deleted"]?.get(Int64.self)
        else { return ["A read view gave no entries or no tally."] }
        let keys = snapshots.map(EntryKey.init)
        var problems: [String] = []
        if Int64(snapshots.count) != inserted - deleted {
            problems.append(
                "A read view holds \(snapshots.count) entries, but its tally says \(inserted) inserted and "
                    + "\(deleted) deleted.")
        }
        if Set(keys).count != keys.count { problems.append("A read view holds an entry twice.") }
        return problems
    }

    private static func entries(in store: any IncrementalStore) throws -> [(objectID: ObjectID, key: EntryKey)] {
        guard case .snapshots(let snapshots) = try store.execute(StoreFetchRequest(entityName: "Entry")) else {
            return []
        }
        return snapshots.map { ($0.objectID, EntryKey($0)) }
    }

    /// One entry's writer and serial.
    struct EntryKey: Hashable, Comparable, CustomStringConvertible {
        var writer: String
        var serial: Int64

        init(writer: String, serial: Int64) {
            self.writer = writer
            self.serial = serial
        }

        init(_ snapshot: Snapshot) {
            writer = snapshot.values["writer"]?.get(String.self) ?? "?"
            serial = snapshot.values["serial"]?.get(Int64.self) ?? -1
        }

        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.writer, lhs.serial) < (rhs.writer, rhs.serial) }

        var description: String { "\(writer) \(serial)" }
    }
}
