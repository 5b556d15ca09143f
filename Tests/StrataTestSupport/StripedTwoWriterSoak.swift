import Foundation
import Strata

/// Two processes saving across the same two stores at once, each killed and started again at
/// random, while this process waits: every acknowledged save must be whole in both stores, and
/// no save half in one (docs/STRIPED-SAVES.md).
///
/// Each writer (`SoakWorker striped-writer <folder> <writer> <seconds>`) opens the cities
/// (SQLite) and the visits (LMDB) of one folder and saves in a loop: every save inserts a city
/// and a visit tagged with the writer and the save's serial, and the writer prints
/// `ack <serial>` once the save returned. A writer started again goes on after the largest
/// serial the stores hold for it.
public enum StripedTwoWriterSoak {
    /// `City` and `Visit` (`writer`, `serial`), in the configurations `Cities` and `Visits`.
    public static let model: ManagedObjectModel = {
        ManagedObjectModel {
            for entity in ["City", "Visit"] {
                EntityDescription(entity) {
                    AttributeDescription("writer", .string)
                    AttributeDescription("serial", .integer64)
                }
            }
            ConfigurationDescription("Cities", entities: ["City"])
            ConfigurationDescription("Visits", entities: ["Visit"])
        }
    }()

    /// What a soak saw.
    public struct Report: Sendable {
        /// Saves each writer acknowledged.
        public var acknowledgedSaves: [String: Int] = [:]
        /// Writers killed while running.
        public var kills = 0
        /// Every invariant found broken, empty when the soak passed.
        public var problems: [String] = []
    }

    /// The two writers' names.
    public static let writers = ["left", "right"]

    /// How long the writers write, in seconds: 6, or 300 when the environment variable
    /// `STRATA_SOAK` is set to anything but `0` or an empty string (`make soak`).
    public static var seconds: Double {
        let soak = ProcessInfo.processInfo.environment["STRATA_SOAK"] ?? ""
        return soak.isEmpty || soak == "0" ? 6 : 300
    }

    /// A coordinator with the cities (`cities.sqlite`) and visits (`visits.lmdb`) of `folder`
    /// added, with the SQLite and LMDB store types given.
    public static func open(_ folder: URL, sqlite: StoreType, lmdb: StoreType) throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [sqlite, lmdb])
        try coordinator.addStore(
            type: sqlite.name, configuration: "Cities", at: folder.appendingPathComponent("cities.sqlite"))
        try coordinator.addStore(
            type: lmdb.name, configuration: "Visits", at: folder.appendingPathComponent("visits.lmdb"))
        return coordinator
    }

    /// The serials `writer` has in the cities and in the visits of `coordinator`.
    public static func serials(of writer: String, in coordinator: PersistentStoreCoordinator) throws -> (
        cities: [Int64], visits: [Int64]
    ) {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            let read = { (entity: String) throws -> [Int64] in
                var request = FetchRequest(entityName: entity)
                request.predicate = try FetchPredicate(format: "writer == %@", arguments: [writer])
                return try context.fetch(request).compactMap { try $0.value(forKey: "serial").get(Int64.self) }.sorted()
            }
            return (try read("City"), try read("Visit"))
        }
    }

    /// Runs the two writers of `worker` in `folder` for `seconds`, each killed after a random
    /// time between 0.2 and 1.2 seconds and started again, then adds the stores with `sqlite`
    /// and `lmdb` and checks them.
    public static func run(
        folder: URL, worker: URL, seconds: Double, sqlite: StoreType, lmdb: StoreType
    ) throws -> Report {
        let deadline = Date().addingTimeInterval(seconds)
        let outcomes = Locked<[String: (acknowledged: Set<Int64>, kills: Int, problems: [String])]>([:])
        DispatchQueue.concurrentPerform(iterations: writers.count) { index in
            let writer = writers[index]
            var generator = SystemRandomNumberGenerator()
            var acknowledged: Set<Int64> = []
            var kills = 0
            var problems: [String] = []
            var run = 0
            while Date() < deadline {
                run += 1
                let process: SoakProcess
                do {
                    process = try SoakProcess(
                        worker: worker,
                        arguments: ["striped-writer", folder.path, writer, "\(deadline.timeIntervalSinceNow)"],
                        named: "\(writer)-\(run)", outputBeside: folder.appendingPathComponent("soak"))
                } catch {
                    problems.append("Writer \(writer) did not start: \(error)")
                    break
                }
                usleep(UInt32.random(in: 200_000...1_200_000, using: &generator))
                if process.isRunning, Date() < deadline {
                    process.kill()
                    kills += 1
                }
                let ending = process.finish()
                for line in ending.lines where line.hasPrefix("ack ") {
                    if let serial = Int64(line.dropFirst(4)) { acknowledged.insert(serial) }
                }
                if !process.endedBySignal, ending.status != 0 {
                    problems.append(
                        "Writer \(writer), run \(run), ended with status \(ending.status): \(ending.errors)")
                }
            }
            outcomes.withLock { $0[writer] = (acknowledged, kills, problems) }
        }
        var report = Report()
        let coordinator = try open(folder, sqlite: sqlite, lmdb: lmdb)
        for (writer, outcome) in outcomes.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            report.acknowledgedSaves[writer] = outcome.acknowledged.count
            report.kills += outcome.kills
            report.problems += outcome.problems
            let (cities, visits) = try serials(of: writer, in: coordinator)
            if cities != visits {
                report.problems.append(
                    "Writer \(writer)'s saves are half: cities only \(Set(cities).subtracting(visits).sorted().prefix(10)), "
                        + "visits only \(Set(visits).subtracting(cities).sorted().prefix(10)).")
            }
            if Set(cities).count != cities.count { report.problems.append("Writer \(writer) has a city twice.") }
            let lost = outcome.acknowledged.subtracting(cities)
            if !lost.isEmpty {
                report.problems.append("Writer \(writer) lost acknowledged saves \(lost.sorted().prefix(10)).")
            }
        }
        return report
    }

    /// What `report` says, on one line, for the test log.
    public static func summary(of report: Report, seconds: Double) -> String {
        "Striped two-writer soak, \(Int(seconds)) s: saves \(report.acknowledgedSaves), \(report.kills) kills, "
            + "problems \(report.problems.count)"
    }
}
