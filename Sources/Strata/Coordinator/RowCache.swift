import Foundation

/// The coordinator's cache of stored snapshots, shared by its contexts: when two contexts load
/// the same object while its snapshot is current, the store is read once.
///
/// Snapshots enter when a context reads them from a store (loads, fetches, batches) and when a
/// context saves; a saved deletion removes them. The cache holds at most ``capacity``
/// snapshots in two generations of half that many each: new snapshots join the young
/// generation, and when it is full it becomes the old one and the old one goes at once, so
/// storing a snapshot costs one dictionary insertion. Storing an object's snapshot again
/// replaces it. What other coordinators or processes save is not seen here until a fetch or a
/// load reads the store again: a context's ``ManagedObjectContext/stalenessInterval`` bounds
/// how old a cached snapshot it accepts.
final class RowCache: Sendable {
    private struct Entry: Sendable {
        let snapshot: Snapshot
        let loaded: ContinuousClock.Instant
    }

    private struct Generations: Sendable {
        var young: [ObjectID: Entry] = [:]
        var old: [ObjectID: Entry] = [:]
    }

    /// The most snapshots kept.
    let capacity: Int
    private let generationSize: Int
    private let generations = Locked(Generations())

    init(capacity: Int = 10_000) {
        self.capacity = capacity
        generationSize = max(1, capacity / 2)
    }

    /// The cached snapshot of `objectID` no older than `maximumAge` seconds (any age when `nil`).
    func snapshot(for objectID: ObjectID, maximumAge: TimeInterval?) -> Snapshot? {
        guard let entry = generations.withLock({ $0.young[objectID] ?? $0.old[objectID] }) else { return nil }
        if let maximumAge, entry.loaded.duration(to: .now) > .milliseconds(Int64(maximumAge * 1_000)) { return nil }
        return entry.snapshot
    }

    /// Keeps `snapshots` as read or written now. Of more snapshots than the cache holds, only
    /// the last ``capacity`` are stored: the earlier ones would make way for them at once.
    func store(_ snapshots: some Collection<Snapshot>) {
        let now = ContinuousClock.now
        let size = generationSize
        // Dropped generations are released after the lock is let go.
        var dropped: [[ObjectID: Entry]] = []
        generations.withLock { generations in
            for snapshot in snapshots.suffix(capacity) {
                if generations.young.count >= size, generations.young[snapshot.objectID] == nil {
                    dropped.append(generations.old)
                    generations.old = generations.young
                    generations.young = Dictionary(minimumCapacity: size)
                }
                generations.young[snapshot.objectID] = Entry(snapshot: snapshot, loaded: now)
            }
        }
        _ = dropped
    }

    /// Forgets every snapshot of the store `identifier`: it was removed, replaced by a copy
    /// (migration keeps the identifier, but not always the references), or a batch request
    /// changed objects it did not list.
    func removeSnapshots(ofStore identifier: String) {
        generations.withLock { generations in
            generations.young = generations.young.filter { $0.key.storeIdentifier != identifier }
            generations.old = generations.old.filter { $0.key.storeIdentifier != identifier }
        }
    }

    /// Forgets the snapshots of `objectIDs`.
    func remove(_ objectIDs: some Sequence<ObjectID>) {
        generations.withLock { generations in
            guard !generations.young.isEmpty || !generations.old.isEmpty else { return }
            for objectID in objectIDs {
                generations.young[objectID] = nil
                generations.old[objectID] = nil
            }
        }
    }
}
