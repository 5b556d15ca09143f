import Logging
import ServiceLifecycle
import Strata

/// A `PersistentContainer` run as a swift-service-lifecycle `Service`: ``run()`` loads the
/// stores and serves until the service group shuts down, then closes them gracefully.
///
/// ```swift
/// let container = try PersistentContainer(name: "Inventory", model: model)
/// let service = PersistentContainerService(container: container)
/// let group = ServiceGroup(
///     configuration: .init(services: [service, httpServer], gracefulShutdownSignals: [.sigterm], logger: logger))
/// try await group.run()
/// ```
///
/// On graceful shutdown (or cancellation) it first runs `beforeClosing` (stop what reads the
/// stores on its own, such as a search index exporter's indexing), then removes every store
/// with `PersistentStoreCoordinator.removeAllStores(waitingUpTo:)`: saves in flight finish
/// within ``shutdownTimeout``, later ones fail naming the store, watching for remote changes
/// stops, and each store is closed. Run the services that save (an HTTP server) before this one
/// in the group, so that they stop taking requests first: a service group shuts its services
/// down in reverse order.
public struct PersistentContainerService: Service {
    /// The container whose stores the service loads and closes.
    public let container: PersistentContainer
    /// How long shutdown waits, in all, for the saves in flight.
    public let shutdownTimeout: Duration
    private let beforeClosing: @Sendable () async -> Void
    private let logger: Logger

    /// Creates the service; it logs to `logger` (by default the coordinator's).
    public init(
        container: PersistentContainer, shutdownTimeout: Duration = .seconds(30), logger: Logger? = nil,
        beforeClosing: @escaping @Sendable () async -> Void = {}
    ) {
        self.container = container
        self.shutdownTimeout = shutdownTimeout
        self.logger = logger ?? container.coordinator.logger
        self.beforeClosing = beforeClosing
    }

    /// Loads the stores, waits for graceful shutdown or cancellation, then closes them.
    ///
    /// - Throws: `PersistentContainerLoadError` when a store did not load (the stores that
    ///   loaded are closed again); `StoreError` with code `inUse` when a save
    ///   still held a store at the deadline.
    public func run() async throws {
        do {
            try await container.loadPersistentStores()
        } catch {
            try await close()
            throw error
        }
        logger.info("Stores loaded", metadata: ["container": "\(container.name)"])
        // Either ending is a request to stop: graceful shutdown returns, cancellation throws.
        try? await gracefulShutdown()
        await beforeClosing()
        try await close()
        logger.info("Stores closed", metadata: ["container": "\(container.name)"])
    }

    /// Removes every store off the cooperative pool, since it may wait for saves in flight.
    private func close() async throws {
        let coordinator = container.coordinator
        let timeout = shutdownTimeout
        try await Task.detached { try coordinator.removeAllStores(waitingUpTo: timeout) }.value
    }
}
