import Synchronization

/// One query generation of a coordinator: the stores added when it was taken, each with its
/// read view pinned to that moment, or none for a store without query generations (read at
/// its latest state). Every context pinned to it shares it; its views, and what they hold,
/// are let go when the last context moves on and the last token naming it is dropped.
final class QueryGeneration: Sendable {
    /// The coordinator that took it (its ``PersistentStoreCoordinator/serial``).
    let coordinatorSerial: UInt64
    /// Its place among the coordinator's generations: later generations have larger numbers.
    let sequence: UInt64
    /// The stores added when it was taken, in the order they were added.
    let stores: [any IncrementalStore]
    private let views: [ObjectIdentifier: any StoreGeneration]

    init(coordinatorSerial: UInt64, sequence: UInt64, stores: [any IncrementalStore]) throws {
        self.coordinatorSerial = coordinatorSerial
        self.sequence = sequence
        self.stores = stores
        var views: [ObjectIdentifier: any StoreGeneration] = [:]
        for store in stores {
            if let view = try store.openGeneration() { views[ObjectIdentifier(store)] = view }
        }
        self.views = views
    }

    /// Whether `store` was added when the generation was taken.
    func contains(_ store: any IncrementalStore) -> Bool {
        stores.contains { $0 === store }
    }

    /// The pinned view of `store`; `nil` when the store has none (or was added later).
    func view(of store: any IncrementalStore) -> (any StoreGeneration)? {
        views[ObjectIdentifier(store)]
    }
}

extension PersistentStoreCoordinator {
    /// Numbers each coordinator, so that a token tells which coordinator took its generation.
    private static let serials = Atomic<UInt64>(0)

    static func nextSerial() -> UInt64 {
        serials.add(1, ordering: .relaxed).newValue
    }

    /// A new generation of the stores added now, each read view pinned to the store's last
    /// saved state.
    ///
    /// - Throws: a store's error opening its view (``StoreError/Code/generationUnavailable``
    ///   when it holds as many as it can).
    func openQueryGeneration() throws -> QueryGeneration {
        let stores = state.withLock { $0.stores.map(\.store) }
        let sequence = generationSequence.add(1, ordering: .relaxed).newValue
        return try QueryGeneration(coordinatorSerial: serial, sequence: sequence, stores: stores)
    }
}
