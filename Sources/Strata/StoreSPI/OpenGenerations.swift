/// A store's read view for a query generation that the store can release before the view
/// goes: when the store closes, or when the view outlives a limit.
package protocol ReleasableGeneration: AnyObject, Sendable {
    /// When the view began reading.
    var opened: ContinuousClock.Instant { get }
    /// Lets go of what the view holds; its later reads fail, naming `reason`.
    func release(because reason: String)
}

/// The read views of a store's query generations that are still open, held weakly, in the
/// order they opened.
package final class OpenGenerations: Sendable {
    private struct Entry: Sendable {
        weak var generation: (any ReleasableGeneration)?
        let opened: ContinuousClock.Instant
    }

    private let entries = Locked<[Entry]>([])

    package init() {}

    package func add(_ generation: any ReleasableGeneration) {
        entries.withLock { entries in
            entries.removeAll { $0.generation == nil }
            entries.append(Entry(generation: generation, opened: generation.opened))
        }
    }

    /// How many views are still open.
    package var openCount: Int {
        entries.withLock { entries in entries.count { $0.generation != nil } }
    }

    /// When the oldest view still open began reading; `nil` when none is.
    package var oldestOpened: ContinuousClock.Instant? {
        entries.withLock { entries in entries.first { $0.generation != nil }?.opened }
    }

    /// Releases the views older than `maximumAge`.
    package func releaseExpired(maximumAge: Duration) {
        let now = ContinuousClock.now
        let expired = entries.withLock { entries -> [any ReleasableGeneration] in
            guard let oldest = entries.first, oldest.opened.duration(to: now) > maximumAge else { return [] }
            let expired = entries.filter { $0.opened.duration(to: now) > maximumAge }.compactMap(\.generation)
            entries.removeAll { $0.generation == nil || $0.opened.duration(to: now) > maximumAge }
            return expired
        }
        for generation in expired {
            generation.release(because: "it outlived the store's maximum generation age of \(maximumAge)")
        }
    }

    /// Releases every view.
    package func releaseAll(because reason: String) {
        let all = entries.withLock { entries in
            defer { entries.removeAll() }
            return entries.compactMap(\.generation)
        }
        for generation in all { generation.release(because: reason) }
    }
}

extension StoreError {
    /// The error a released query generation's view gives for every read: the store named
    /// `storeName` no longer holds it, for `reason` (the store closed, the view outlived a
    /// limit, it lost its connection).
    package static func generationReleased(by storeName: String, because reason: String) -> StoreError {
        StoreError(
            code: .generationUnavailable,
            message: "\(storeName) no longer holds this query generation: \(reason). "
                + "Pin the context again (setQueryGenerationFrom(.current)) to read on.")
    }
}
