import Foundation
import Strata
import StrataTestSupport

/// The rounds of `MemorySoak`, which describes what they do and print. With
/// `keepsEveryContext`, each round's context is kept, its objects still registered: the
/// negative control of the soak's memory check.
final class MemorySoakRounds {
    let storeType: StoreType
    let url: URL
    let keepsEveryContext: Bool
    private var keptContexts: [ManagedObjectContext] = []

    init(storeType: StoreType, url: URL, keepsEveryContext: Bool) {
        self.storeType = storeType
        self.url = url
        self.keepsEveryContext = keepsEveryContext
    }

    /// Fills the store with `objects` entries when it is empty, then runs `rounds` rounds.
    func run(objects: Int, rounds: Int) throws {
        let started = Date()
        try fill(objects)
        report("filled \(objects) \(Date().timeIntervalSince(started))")
        for round in 1...rounds {
            let started = Date()
            let seen = try runRound(round)
            guard seen == objects else {
                throw StoreError(code: .unknownObject, message: "Round \(round) read \(seen) of \(objects) entries.")
            }
            report("round \(round) \(MemorySoak.residentBytes()) \(Date().timeIntervalSince(started))")
        }
    }

    /// Saves `count` entries in saves of ``MemorySoak/insertsPerSave``, through the store.
    private func fill(_ count: Int) throws {
        let coordinator = try PersistentStoreCoordinator(model: TwoWriterSoak.model, storeTypes: [storeType])
        let store = try coordinator.addStore(type: storeType.name, at: url)
        defer { try? coordinator.remove(store) }
        for start in stride(from: 0, to: count, by: MemorySoak.insertsPerSave) {
            let serials = start..<min(start + MemorySoak.insertsPerSave, count)
            let ids = try store.permanentIDs(forEntities: Array(repeating: "Entry", count: serials.count))
            try store.save(
                StoreChangeSet(
                    inserted: zip(ids, serials).map { id, serial in
                        .init(
                            objectID: id, values: ["writer": .string("round 0"), "serial": .integer64(Int64(serial))],
                            expectedVersion: 0)
                    }))
        }
    }

    /// Opens the store, reads every entry through a batched fetch, checks that the entries
    /// the last round changed hold its mark, marks the first ``MemorySoak/updatesPerRound``
    /// entries with this round, saves, and closes the store; returns how many entries it read.
    private func runRound(_ round: Int) throws -> Int {
        let coordinator = try PersistentStoreCoordinator(model: TwoWriterSoak.model, storeTypes: [storeType])
        let store = try coordinator.addStore(type: storeType.name, at: url)
        defer { try? coordinator.remove(store) }
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait { () throws -> Int in
            var request = FetchRequest<ManagedObject>(entityName: "Entry")
            request.sortDescriptors = [FetchSortDescriptor("serial")]
            request.fetchBatchSize = MemorySoak.batchSize
            let entries = try context.fetch(request)
            var seen = 0
            for (index, entry) in entries.enumerated() {
                let writer = try entry.value(forKey: "writer").get(String.self)
                let expected = index < MemorySoak.updatesPerRound ? "round \(round - 1)" : "round 0"
                guard writer == expected else {
                    throw StoreError(
                        code: .invalidChange,
                        message: "Entry \(index) holds '\(writer ?? "nil")' in round \(round), not '\(expected)'.")
                }
                if index < MemorySoak.updatesPerRound {
                    try entry.setValue(.string("round \(round)"), forKey: "writer")
                }
                seen += 1
            }
            try context.save()
            if keepsEveryContext { keptContexts.append(context) } else { context.reset() }
            return seen
        }
    }

    private func report(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}
