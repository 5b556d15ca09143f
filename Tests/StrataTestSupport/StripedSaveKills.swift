import Foundation
@_spi(FaultInjection) import Strata

/// Kills a worker at each step of a save across three stores and checks that every store then
/// holds all of the save or none of it (docs/STRIPED-SAVES.md).
///
/// The worker (`SoakWorker striped <folder> <saves> <step> [defect]`) opens cities, visits and
/// tips in three stores of one folder and makes `saves` saves; each inserts one object with the
/// next serial in every store and sets the serial-0 object's `latest` to it in every store. On
/// its last save it kills itself with `SIGKILL` at `step` (a ``PersistentStoreCoordinator/StripedSaveStep``).
/// The test then adds the stores to a new coordinator, which completes what the log holds, and
/// expects every store to hold the serials 0 through the last save it made (the killed one
/// included once it was logged) and `latest` equal to that serial.
public enum StripedSaveKills {
    /// The entity each store holds, its configuration and its file name.
    public static let stores: [(entity: String, configuration: String, file: String)] = [
        ("City", "Cities", "cities.sqlite"), ("Visit", "Visits", "visits.lmdb"), ("Tip", "Tips", "tips.xml"),
    ]

    /// The steps the worker is killed at, as it names them: before the save is logged, inside
    /// the log's append (half the record written, the record written, flushed, the header
    /// deciding it written), after it, after each store's commit, at the end; and
    /// `recovering`, where a first worker is killed once the save is logged and a second one
    /// while it completes the save from the log.
    public static let steps = [
        "checked", "recordHalfWritten", "recordWritten", "recordFlushed", "headerWritten", "logged", "committed0",
        "committed1", "committed2", "finished", "recovering",
    ]

    /// The steps at which the killed save is not decided: no store may hold it.
    static let undecidedSteps: Set<String> = ["checked", "recordHalfWritten", "recordWritten", "recordFlushed"]

    /// The kills per step: 50, or 1,000 when `STRATA_SOAK` is set to anything but `0` or an
    /// empty string (`make soak`).
    public static var killsPerStep: Int {
        let soak = ProcessInfo.processInfo.environment["STRATA_SOAK"] ?? ""
        return soak.isEmpty || soak == "0" ? 50 : 1000
    }

    public static let model: ManagedObjectModel = {
        ManagedObjectModel {
            for (entity, _, _) in stores {
                EntityDescription(entity) {
                    AttributeDescription("serial", .integer64)
                    AttributeDescription("latest", .integer64)
                }
            }
            for (entity, configuration, _) in stores { ConfigurationDescription(configuration, entities: [entity]) }
        }
    }()

    /// A coordinator with the three stores of `folder` added, each of its type in `storeTypes`
    /// (SQLite, LMDB, XML, in the order of ``stores``).
    /// With `killingOnceRecovered`, the process kills itself (`SIGKILL`) once a store has
    /// completed a save it missed from the log: a kill inside recovery.
    public static func open(
        _ folder: URL, storeTypes: [StoreType], killingOnceRecovered: Bool = false
    ) throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: storeTypes)
        if killingOnceRecovered {
            coordinator.probeStripedSaves { step in
                if step == .completedFromLog { kill(getpid(), SIGKILL) }
            }
        }
        for (type, store) in zip(storeTypes, stores) {
            try coordinator.addStore(
                type: type.name, configuration: store.configuration, at: folder.appendingPathComponent(store.file))
        }
        return coordinator
    }

    /// The serials each store holds, in order, and the `latest` of its serial-0 object.
    public static func contents(of coordinator: PersistentStoreCoordinator) throws -> [(
        serials: [Int64], latest: Int64?
    )] {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            try stores.map { store in
                var request = FetchRequest(entityName: store.entity)
                request.sortDescriptors = [FetchSortDescriptor("serial")]
                let objects = try context.fetch(request)
                let serials = try objects.map { try integer($0, "serial") }
                let latest = try objects.first { try integer($0, "serial") == 0 }.map { try integer($0, "latest") }
                return (serials, latest)
            }
        }
    }

    /// Saves serial `serial` across the three stores: one new object in each, and the serial-0
    /// objects' `latest` set to it (they are made by serial 0).
    public static func save(_ serial: Int64, in context: ManagedObjectContext) throws {
        try context.performAndWait {
            for store in stores {
                let object = try context.insertNewObject(forEntityName: store.entity)
                try object.setValue(.integer64(serial), forKey: "serial")
                try object.setValue(.integer64(serial), forKey: "latest")
                guard serial > 0 else { continue }
                var request = FetchRequest(entityName: store.entity)
                request.predicate = try FetchPredicate(format: "serial == 0")
                for first in try context.fetch(request) { try first.setValue(.integer64(serial), forKey: "latest") }
            }
            try context.save()
        }
    }

    private static func integer(_ object: ManagedObject, _ key: String) throws -> Int64 {
        guard case .integer64(let value) = try object.value(forKey: key) else {
            throw StoreError(code: .corrupt, message: "\(object.objectID) has no Integer 64 '\(key)'.")
        }
        return value
    }

    /// How many kills go on in one folder before the next starts afresh.
    public static let killsPerFolder = 100

    /// What a run of kills found.
    public struct Report: Sendable {
        /// The kills made.
        public var kills = 0
        /// Each store state that broke the rule, or a worker that was not killed.
        public var problems: [String] = []
    }

    /// Kills the worker `kills` times at `step`, in folders inside `folder` (a new one every
    /// ``killsPerFolder`` kills), checking the stores after each.
    /// With `workerDefect`, the worker has it (the negative control).
    public static func run(
        step: String, kills: Int, folder: URL, worker: URL, storeTypes: [StoreType], workerDefect: String? = nil
    ) throws -> Report {
        var report = Report()
        var last: Int64 = -1
        var round = folder
        for kill in 0..<kills {
            // A new folder every `killsPerFolder` kills keeps the stores small, so that a kill
            // costs the same at the end of a long run as at its start.
            if kill % killsPerFolder == 0 {
                round = folder.appendingPathComponent("round-\(kill / killsPerFolder)")
                try FileManager.default.createDirectory(at: round, withIntermediateDirectories: true)
                last = -1
            }
            let saves = 1 + kill % 3
            let recovering = step == "recovering"
            var runs = [
                ["striped", round.path, "\(saves)", recovering ? "logged" : step] + (workerDefect.map { [$0] } ?? [])
            ]
            if recovering { runs.append(["striped-recover", round.path]) }
            for arguments in runs {
                let process = try SoakProcess(
                    worker: worker, arguments: arguments, named: "striped",
                    outputBeside: round.appendingPathComponent("worker"))
                let (status, _, errors) = process.finish()
                guard status == SIGKILL, process.endedBySignal else {
                    report.problems.append(
                        "Kill \(kill) at \(step) (\(arguments[0])): the worker ended with status \(status): \(errors)")
                    return report
                }
            }
            report.kills += 1
            let coordinator = try open(round, storeTypes: storeTypes)
            let contents = try contents(of: coordinator)
            let expected = last + Int64(saves) - (undecidedSteps.contains(step) ? 1 : 0)
            let serials = expected < 0 ? [] : Array(0...expected)
            for (store, held) in zip(stores, contents)
            where held.serials != serials || held.latest != (expected < 0 ? nil : expected) {
                report.problems.append(
                    "Kill \(kill) at \(step) of save \(last + Int64(saves)): the \(store.entity) store holds serials "
                        + "\(held.serials.first ?? -1)...\(held.serials.last ?? -1) (\(held.serials.count)) and latest "
                        + "\(held.latest.map(String.init) ?? "none"), not 0...\(expected) and latest \(expected)")
            }
            guard report.problems.isEmpty else { return report }
            last = expected
        }
        return report
    }
}
