import Foundation

extension PersistentStoreCoordinator {
    /// A save across stores that one log decided and that could not be decided in every log
    /// nor taken back from the logs that decided it.
    struct PartlyDecidedSave: Error {
        /// The log that keeps the save decided.
        let log: URL
        let failure: any Error
    }

    /// Appends `entry` to every log of `logs`, deciding it in each. When one cannot, the logs
    /// that decided it take it back, so that the save is decided nowhere, and the failure is
    /// thrown; a log that cannot take it back keeps it decided (``PartlyDecidedSave``).
    func append(_ entry: StripedSaveLog.Entry, to logs: [StripedSaveLog]) throws {
        for (index, log) in logs.enumerated() {
            do {
                try log.append(entry, probe: probe)
            } catch let error as StoreError where error.code == .savePending {
                throw PartlyDecidedSave(log: log.url, failure: error)
            } catch {
                for decided in logs[..<index].reversed() {
                    do {
                        try decided.retract()
                    } catch let retraction {
                        throw PartlyDecidedSave(log: decided.url, failure: retraction)
                    }
                }
                throw error
            }
        }
    }

    /// The added stores `entry` writes to.
    func storesOf(_ entry: StripedSaveLog.Entry) -> [any IncrementalStore] {
        let identifiers = Set(entry.changes.map(\.storeIdentifier))
        return stores.filter { identifiers.contains($0.identifier) }
    }

    /// The error of a save decided in `log` that `unwritten` did not take (the first failed
    /// with `failure`): the stores with files among them are removed from the coordinator
    /// (``removeStores(missing:)``), so that no other save reaches them before they have it,
    /// and get it when they are next added.
    func pendingSaveError(unwritten: [any IncrementalStore], log: URL, failure: any Error) -> StoreError {
        let removed = unwritten.filter { !$0.isInMemoryOnly }
        return StoreError(
            code: .savePending,
            message: "\(unwritten[0].nameInMessages) could not write its part of a save across stores after the save "
                + "was logged in '\(log.path)': \(failure) The save is decided: the stores written hold it, and "
                + removed.map(\.nameInMessages).joined(separator: ", ")
                + (removed.count == 1 ? " was" : " were")
                + " removed from the coordinator and get it when added again.",
            underlying: failure)
    }

    /// Removes those of `unwritten` that keep their state from the coordinator: they missed a
    /// decided save, which the log gives them when they are added again.
    func removeStores(missing unwritten: [any IncrementalStore]) {
        for store in unwritten where !store.isInMemoryOnly {
            do {
                try remove(store)
            } catch {
                logger.warning(
                    "Could not remove a store that missed a save across stores", metadata: ["error": "\(error)"])
            }
        }
    }
}
