import Foundation
@_spi(FaultInjection) import Strata
import StrataTestSupport

/// The worker of `StripedSaveKills`, which describes what it saves: `saves` saves across the
/// three stores of `folder`, killing itself at `step` of the last. With `saves-store-by-store`,
/// the last save is made one store at a time and the worker is killed after the first: the
/// negative control of the kill test's checks.
struct StripedSaveWriter {
    static let storeTypes: [StoreType] = [.sqlite, .lmdb, .xml]

    let folder: URL
    let saves: Int
    let step: PersistentStoreCoordinator.StripedSaveStep
    let savesStoreByStore: Bool

    /// Reads `<folder> <saves> <step> [saves-store-by-store]`; `nil` when they do not parse.
    init?(arguments: [String]) {
        let byStore = arguments.count == 4 && arguments[3] == "saves-store-by-store"
        let steps: [String: PersistentStoreCoordinator.StripedSaveStep] = [
            "checked": .checked, "recordHalfWritten": .recordHalfWritten, "recordWritten": .recordWritten,
            "recordFlushed": .recordFlushed, "headerWritten": .headerWritten, "logged": .logged,
            "committed0": .committed(0), "committed1": .committed(1), "committed2": .committed(2),
            "finished": .finished,
        ]
        guard arguments.count == 3 || byStore, let saves = Int(arguments[1]), saves > 0, let step = steps[arguments[2]]
        else { return nil }
        folder = URL(fileURLWithPath: arguments[0])
        self.saves = saves
        self.step = step
        savesStoreByStore = byStore
    }

    func run() throws {
        let coordinator = try StripedSaveKills.open(folder, storeTypes: Self.storeTypes)
        let last = try StripedSaveKills.contents(of: coordinator).compactMap(\.serials.last).max() ?? -1
        let context = ManagedObjectContext(coordinator: coordinator)
        for serial in last + 1..<last + Int64(saves) {
            try StripedSaveKills.save(serial, in: context)
        }
        let serial = last + Int64(saves)
        guard !savesStoreByStore else {
            try saveStoreByStore(serial, through: coordinator)
            kill(getpid(), SIGKILL)
            return
        }
        let step = self.step
        coordinator.probeStripedSaves { reached in
            if reached == step { kill(getpid(), SIGKILL) }
        }
        try StripedSaveKills.save(serial, in: context)
    }

    /// Adds the stores of `folder`, killing the process once a store has completed a save it
    /// missed from the log: a kill inside recovery.
    static func recover(folder: URL) throws {
        _ = try StripedSaveKills.open(folder, storeTypes: storeTypes, killingOnceRecovered: true)
    }

    /// Saves `serial` to the first store only, as a save that writes stores one after another
    /// leaves them when killed between two.
    private func saveStoreByStore(_ serial: Int64, through coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let object = try context.insertNewObject(forEntityName: StripedSaveKills.stores[0].entity)
            try object.setValue(.integer64(serial), forKey: "serial")
            try object.setValue(.integer64(serial), forKey: "latest")
            try context.save()
        }
    }
}
