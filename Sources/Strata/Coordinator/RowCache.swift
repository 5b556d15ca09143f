import Foundation
import OrderedCollections

/// The coordinator's cache of stored snapshots, shared by its contexts: when two contexts load
/// the same object while its snapshot is current, the store is read once.
///
/// Snapshots enter when a context reads them from a store (loads, fetches, batches) and when a
/// context saves; a saved deletion removes them. The cache holds at most ``capacity``
/// snapshots: when it is full, the quarter of them that entered first goes at once, so that
/// each snapshot stored costs constant time on average. Storing an object's snapshot again
/// replaces it where it is. What other coordinators or processes save is not
/// seen here until a fetch or a load reads the store again: a context's
/// ``ManagedObjectContext/stalenessInterval`` bounds how old a cached snapshot it accepts.
final class RowCache: Sendable {
    private struct Entry: Sendable {
        let snapshot: Snapshot
        let loaded: ContinuousClock.Instant
    }

    /// The most snapshots kept.
    let capacity: Int
    private let entries = Locked<OrderedDictionary<ObjectID, Entry>>([:])

    init(capacity: Int = 10_000) { self.capacity = capacity }

    /// The cached snapshot of `objectID` no older than `maximumAge` seconds (any age when `nil`).
    func snapshot(for objectID: ObjectID, maximumAge: TimeInterval?) -> Snapshot? {
        guard let entry = entries.withLock({ $0[objectID] }) else { return nil }
        if let maximumAge, entry.loaded.duration(to: .now) > .milliseconds(Int64(maximumAge * 1_000)) { return nil }
        return entry.snapshot
    }

    /// Keeps `snapshots` as read or written now, letting the first entries go past ``capacity``.
    /// Of more snapshots than the cache holds, only the last ``capacity`` are stored: the
    /// earlier ones would make way for them at once.
    func store(_ snapshots: some Collection<Snapshot>) {
        let now = ContinuousClock.now
        entries.withLock { entries in
            for snapshot in snapshots.suffix(capacity) {
                entries[snapshot.objectID] = Entry(snapshot: snapshot, loaded: now)
            }
            if entries.count > capacity { entries.removeFirst(entries.count - capacity * 3 / 4) }
        }
    }

    /// Forgets every snapshot of the store `identifier`: it was removed, or replaced by a copy
    /// (migration keeps the identifier, but not always the references).
    func removeSnapshots(ofStore identifier: String) {
        entries.withLock { entries in
            entries.removeAll { $0.key.storeIdentifier == identifier }
        }
    }

    /// Forgets the snapshots of `objectIDs`.
    func remove(_ objectIDs: some Sequence<ObjectID>) {
        let removed = Set(objectIDs)
        guard !removed.isEmpty else { return }
        entries.withLock { entries in
            entries.removeAll { removed.contains($0.key) }
        }
    }
}
