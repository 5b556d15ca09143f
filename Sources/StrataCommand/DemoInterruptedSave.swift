import ArgumentParser
import Foundation
@_spi(FaultInjection) import Strata
import StrataStores

/// `strata demo-interrupted-save <directory>`, which `strata demo` runs in a process of its own:
/// opens the demo's three stores, saves a new city, a visit and a tip in one save, and kills
/// itself with `SIGKILL` once the first store (SQLite) has committed, before the others.
struct DemoInterruptedSave: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-interrupted-save", abstract: "Part of `strata demo`: a save killed midway.",
        shouldDisplay: false)

    /// The name of what the interrupted save makes, in every store.
    static let name = "Interrupted Falls"

    @Argument(help: "The demo's directory.")
    var directory: String

    func run() throws {
        try reportingFailure {
            let demo = try GuidebookDemo(directory: URL(fileURLWithPath: directory))
            let coordinator = try demo.openStores()
            let context = ManagedObjectContext(coordinator: coordinator, name: "interrupted")
            try context.performAndWait {
                let city = City(context: context)
                (city.name, city.population) = (Self.name, 4_200)
                let visit = Visit(context: context)
                (visit.title, visit.cityName, visit.day, visit.city) = (Self.name, Self.name, 9, city)
                let tip = Tip(context: context)
                (tip.title, tip.cityName, tip.day) = (Self.name, Self.name, 9)
                coordinator.probeStripedSaves { step in
                    if step == .committed(0) { kill(getpid(), SIGKILL) }
                }
                try context.save()
            }
            throw CommandFailure(description: "the save across stores finished; it should have been killed")
        }
    }
}

extension GuidebookDemo {
    /// Runs `strata demo-interrupted-save` in a process of its own, then adds the stores back to
    /// `coordinator` (which completes the save from the log) and tells what each holds.
    func interruptSave(in coordinator: PersistentStoreCoordinator) throws -> String {
        for store in coordinator.stores { try coordinator.remove(store) }
        let worker = Process()
        worker.executableURL = Bundle.main.executableURL
        worker.arguments = ["demo-interrupted-save", directory.path]
        try worker.run()
        worker.waitUntilExit()
        guard worker.terminationReason == .uncaughtSignal, worker.terminationStatus == SIGKILL else {
            throw CommandFailure(
                description: "the interrupted save's process ended with status \(worker.terminationStatus)")
        }
        let log = directory.appendingPathComponent(".strata-save-log")
        let logged = try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int ?? 0
        try addStores(to: coordinator)
        let context = ManagedObjectContext(coordinator: coordinator, name: "after the kill")
        let name = DemoInterruptedSave.name
        let found = try context.performAndWait {
            [
                try context.count(for: try FetchRequest<City>(predicate: #Predicate { $0.name == name })),
                try context.count(for: try FetchRequest<Visit>(predicate: #Predicate { $0.title == name })),
                try context.count(for: try FetchRequest<Tip>(predicate: #Predicate { $0.title == name })),
            ]
        }
        return "a process saving a city (SQLite), a visit (LMDB) and a tip (XML) named \(name) in one save was "
            + "killed after the SQLite store committed; the save log held the save (\(logged) bytes); adding the "
            + "stores again completed it: \(found[0]) city, \(found[1]) visit, \(found[2]) tip"
    }
}
